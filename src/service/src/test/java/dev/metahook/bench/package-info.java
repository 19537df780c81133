/**
 * The benchmark's pieces that run on the JVM: the request bodies it sends (as Metacontroller sends
 * them), the constant-body floor server, and the JMH microbenchmarks of the engine path.
 * {@code src/bench/run} drives them.
 */
package dev.metahook.bench;
