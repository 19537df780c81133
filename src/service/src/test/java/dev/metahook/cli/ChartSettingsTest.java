package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.testing.Helm;
import dev.metahook.testing.RenderedObjects;
import dev.metahook.testing.Tools;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The built-in chart's settings for the container's environment and traces, and its schema's closed Kubernetes values. */
class ChartSettingsTest {
    private static final Path CHART = Path.of("metacontroller/chart");

    private static JsonNode container(Map<String, String> values) {
        return RenderedObjects.of(Helm.template(CHART, "metahook-system", values)).get("apps/v1 Deployment metahook-system/metahook")
                .at("/spec/template/spec/containers/0");
    }

    private static Map<String, String> variables(JsonNode container) {
        Map<String, String> variables = new LinkedHashMap<>();
        container.get("env").forEach(variable -> variables.put(variable.path("name").asText(),
                variable.has("value") ? variable.get("value").asText() : variable.get("valueFrom").toString()));
        return variables;
    }

    @Test
    void spansAreNamedForTheServiceByDefault() {
        JsonNode container = container(Map.of());
        assertEquals("metahook", variables(container).get("OTEL_SERVICE_NAME"));
        assertFalse(variables(container).containsKey("OTEL_EXPORTER_OTLP_ENDPOINT"), "traces stay off");
        assertFalse(container.has("envFrom"), container.toString());
    }

    @Test
    void tracingValuesSetTheOpenTelemetryVariables() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("tracing.endpoint", "http://otel-collector.observability:4318");
        values.put("tracing.sampler", "parentbased_traceidratio");
        values.put("tracing.samplerArg", "0.25");
        values.put("tracing.serviceName", "hooks-prod");
        Map<String, String> variables = variables(container(values));
        assertEquals("http://otel-collector.observability:4318", variables.get("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assertEquals("parentbased_traceidratio", variables.get("OTEL_TRACES_SAMPLER"));
        assertEquals("0.25", variables.get("OTEL_TRACES_SAMPLER_ARG"));
        assertEquals("hooks-prod", variables.get("OTEL_SERVICE_NAME"));
    }

    @Test
    void envExtraEnvAndEnvFromReachTheContainer() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("env.OTEL_EXPORTER_OTLP_HEADERS", "x-team=platform");
        values.put("env.JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=70");
        values.put("extraEnv[0].name", "NODE");
        values.put("extraEnv[0].valueFrom.fieldRef.fieldPath", "spec.nodeName");
        values.put("envFrom[0].secretRef.name", "otel-credentials");
        JsonNode container = container(values);
        Map<String, String> variables = variables(container);
        assertEquals("x-team=platform", variables.get("OTEL_EXPORTER_OTLP_HEADERS"));
        assertEquals("-XX:MaxRAMPercentage=70", variables.get("JAVA_TOOL_OPTIONS"));
        assertEquals("{\"fieldRef\":{\"fieldPath\":\"spec.nodeName\"}}", variables.get("NODE"));
        assertEquals("json", variables.get("LOG_FORMAT"), "the chart's own variables stay");
        assertEquals("otel-credentials", container.at("/envFrom/0/secretRef/name").asText());
    }

    /** A variable the chart sets from its own values, set again through env or extraEnv, is an error naming it. */
    @Test
    void aVariableTheChartSetsIsRefusedInEnv() {
        Tools.Run env = Helm.templateRun(CHART, "metahook-system", Map.of("env.OTEL_SERVICE_NAME", "other"));
        assertTrue(env.exit() != 0 && env.output().contains("env.OTEL_SERVICE_NAME: the chart sets this variable itself"), env.output());
        Tools.Run tracing = Helm.templateRun(CHART, "metahook-system", Map.of("tracing.endpoint", "http://collector:4318",
                "env.OTEL_EXPORTER_OTLP_ENDPOINT", "http://other:4318"));
        assertTrue(tracing.exit() != 0 && tracing.output().contains("env.OTEL_EXPORTER_OTLP_ENDPOINT"), tracing.output());
        Tools.Run extra = Helm.templateRun(CHART, "metahook-system", Map.of("extraEnv[0].name", "PORT", "extraEnv[0].value", "x"));
        assertTrue(extra.exit() != 0 && extra.output().contains("extraEnv: PORT"), extra.output());
    }

    /** A misspelt field inside securityContext, podSecurityContext or resources is refused, naming it, and nothing renders. */
    @Test
    void misspeltKubernetesFieldsAreRefused() {
        Map<String, String> misspelt = Map.of("securityContext.readOnlyRootFilesytem", "readOnlyRootFilesytem",
                "podSecurityContext.runAsNonRot", "runAsNonRot", "resources.limit.memory", "limit",
                "securityContext.capabilities.dorp", "dorp");
        for (Map.Entry<String, String> value : misspelt.entrySet()) {
            Tools.Run run = Helm.templateRun(CHART, "metahook-system", Map.of(value.getKey(), "true"));
            assertTrue(run.exit() != 0 && run.output().contains("'" + value.getValue() + "' not allowed"), value + ": " + run.output());
            assertFalse(run.output().contains("kind: Deployment"), "nothing rendered");
        }
        Tools.Run sampler = Helm.templateRun(CHART, "metahook-system", Map.of("tracing.sampler", "sometimes"));
        assertTrue(sampler.exit() != 0 && sampler.output().contains("sampler"), sampler.output());
    }
}
