package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.internal.engine.HookEngine;
import dev.metahook.testing.TestServer;
import org.junit.jupiter.api.Test;

/** The start line's phases: each one's time, in the order they ran. */
class StartPhasesTest {

    @Test
    void namesEachPhaseWithItsMillisecondsInOrder() {
        StartPhases phases = new StartPhases();
        phases.done("engine");
        phases.done("metrics");
        assertTrue(phases.toString().matches("engine \\d+ ms, metrics \\d+ ms"), phases.toString());
    }

    @Test
    void aStartedServerNamesItsPhases() {
        try (HookServer server = HookServer.start(new HookEngine(TestServer.widgets(), TestServer.CLOCK),
                HookServer.Options.of(ServerConfig.defaults().withHost("127.0.0.1").withPort(0)))) {
            assertTrue(server.startPhases().matches("metrics \\d+ ms, HTTP listener \\d+ ms, warm-up \\d+ ms"), server.startPhases());
        }
    }
}
