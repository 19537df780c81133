package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.api.Controllers;
import dev.metahook.testkit.Answer;
import dev.metahook.testkit.CheckReport;
import dev.metahook.testkit.HookTester;
import dev.metahook.testkit.Manifests;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(properties = {"metahook.host=127.0.0.1", "metahook.port=0"})
class WebAppControllerTest {
    @Autowired
    Controllers controllers;

    @Test
    void runsTheImageTheSpecNames() {
        WebApp app = Manifests.read(Path.of("webapp.yaml"), WebApp.class);
        Answer answer = HookTester.of(controllers, "webapp").sync(app).call();
        assertTrue(answer.ok(), answer.toString());
        assertEquals("ghcr.io/example/hello:1.5.0",
                answer.child(Deployment.class, "hello").orElseThrow().getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals("http://hello.default.svc:8080", answer.status(WebApp.Status.class).orElseThrow().url());
    }

    @Test
    void livesAsMetacontrollerWouldDriveIt() {
        CheckReport report = HookTester.of(controllers, "webapp").check(Manifests.read(Path.of("webapp.yaml"), WebApp.class));
        assertTrue(report.clean(), report.toString());
    }
}
