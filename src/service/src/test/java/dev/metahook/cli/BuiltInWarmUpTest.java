package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.metahook.internal.engine.HookAnswer;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.server.WarmUp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The service's warm-up calls are the example requests of its own controllers, and each is answered 200. */
class BuiltInWarmUpTest {

    @Test
    void warmsEveryHookOfTheReferenceControllersWithTheirExampleRequests() throws Exception {
        List<WarmUp.Call> calls = BuiltInControllers.warmUp().calls();
        assertEquals(List.of("webapp/sync", "database/sync", "database/finalize"),
                calls.stream().map(call -> call.controller() + "/" + call.hook()).toList());
        assertArrayEquals(Files.readAllBytes(Path.of("examples/requests/webapp-sync.json")), calls.get(0).body());
        assertArrayEquals(Files.readAllBytes(Path.of("examples/requests/database-sync.json")), calls.get(1).body());
        assertArrayEquals(Files.readAllBytes(Path.of("examples/requests/database-finalize-drain.json")), calls.get(2).body());
        HookEngine engine = new HookEngine(BuiltInControllers.all("a key for the warm-up test".getBytes()), Clock.systemUTC());
        for (WarmUp.Call call : calls) {
            HookAnswer answer = engine.handle(call.controller(), call.hook(), call.body());
            assertEquals(200, answer.status(), call.controller() + "/" + call.hook() + ": " + new String(answer.body()));
        }
    }
}
