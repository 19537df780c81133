module metahook.dev/bench/go-webapp

go 1.19
