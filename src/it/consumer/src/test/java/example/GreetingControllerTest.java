package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.testkit.Answer;
import dev.metahook.testkit.CheckReport;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class GreetingControllerTest {
    private static final HookTester TESTER = HookTester.of(GreetingService.controllers(), "greeting");

    @Test
    void writesTheMessageIntoAConfigMap() {
        Greeting greeting = Manifests.read(Path.of("greeting.yaml"), Greeting.class);
        Answer answer = TESTER.sync(greeting).call();
        assertTrue(answer.ok(), answer.toString());
        assertEquals("hello", answer.child(ConfigMap.class, "hi").orElseThrow().getData().get("message"));
        assertEquals("Written", answer.status(Greeting.Status.class).orElseThrow().conditions().get(0).getReason());
    }

    @Test
    void livesAsMetacontrollerWouldDriveIt() {
        CheckReport report = TESTER.check(Manifests.read(Path.of("greeting.yaml"), Greeting.class));
        assertTrue(report.clean(), report.toString());
    }
}
