package dev.metahook.examples.configmappropagation;

import dev.metahook.testkit.CheckReport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.internal.sim.Checker;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.HttpHook;
import dev.metahook.testing.StoredObjects;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Java port of configmappropagation, served by the stock server, through the simulator's whole
 * life with its related objects in the cluster: customize, the copies, a related object deleted and
 * put back, the parent deleted. The same check the {@code check} command runs with {@code --related}.
 */
class ConfigMapPropagationCheckTest {
    private static final String DIR = "examples/configmappropagation/";

    private static ObjectNode object(String json) {
        return (ObjectNode) Json.parse(json.replace('\'', '"').getBytes());
    }

    private static CheckReport check(List<ObjectNode> related) {
        ControllerSpec spec = ControllerSpec.read(StoredObjects.manifest(DIR + "controller.yaml"));
        try (TestServer server = TestServer.start(Controllers.builder()
                .composite("configmappropagation", ConfigMapPropagation.class, new ConfigMapPropagationController()).build());
             HttpHook hooks = HttpHook.of(spec, URI.create(server.url("")))) {
            return new Checker(spec, hooks, TestServer.CLOCK, 8).check(StoredObjects.manifest(DIR + "configmappropagation.yaml"), null, related);
        }
    }

    @Test
    void isCleanWithItsSourceAndNamespaces() {
        CheckReport report = check(List.of(
                object("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'settings','namespace':'original'},'data':{'some':'value'}}"),
                object("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'one','labels':{'settings':'wanted'}}}"),
                object("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'two','labels':{'settings':'wanted'}}}"),
                object("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'three'}}")));
        assertTrue(report.clean(), report.breaches().toString());
    }

    @Test
    void withoutThemTheRunIsNotClean() {
        List<String> kinds = check(List.of()).breaches().stream().map(CheckReport.Breach::kind).distinct().toList();
        assertEquals(List.of("no-related"), kinds);
    }
}
