package dev.metahook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConditionsTest {
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-29T16:04:05.789Z"), ZoneOffset.UTC);

    private static GenericKubernetesResource parent(String type, String status, String lastTransitionTime) {
        ObjectNode parent = Json.object().put("apiVersion", "example.com/v1").put("kind", "Thing");
        parent.putObject("metadata").put("name", "p").put("generation", 7);
        ObjectNode condition = parent.putObject("status").putArray("conditions").addObject().put("type", type).put("status", status);
        if (lastTransitionTime != null) {
            condition.put("lastTransitionTime", lastTransitionTime);
        }
        return typed(parent);
    }

    private static GenericKubernetesResource typed(ObjectNode parent) {
        try {
            return Json.convert(parent, GenericKubernetesResource.class);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    private static GenericKubernetesResource empty() {
        return new GenericKubernetesResource();
    }

    @Test
    void carriesLastTransitionTimeForwardWhenTheStatusIsUnchanged() {
        Condition ready = Conditions.from(parent("Ready", "True", "2026-11-01T00:00:00+01:00"), NOW)
                .set("Ready", true, "Available", "3/3 replicas available").list().get(0);
        assertEquals("2026-11-01T00:00:00+01:00", ready.getLastTransitionTime());
        assertEquals(7L, ready.getObservedGeneration());
    }

    @Test
    void takesTheCurrentTimeInWholeSecondsWhenTheStatusChanges() {
        Condition ready = Conditions.from(parent("Ready", "True", "2026-11-01T00:00:00Z"), NOW)
                .set("Ready", false, "RollingOut", "1/3 replicas available").list().get(0);
        assertEquals("2026-11-29T16:04:05Z", ready.getLastTransitionTime());
        assertEquals("False", ready.getStatus());
    }

    @Test
    void takesTheCurrentTimeWhenThePreviousOneIsMissingOrUnreadable() {
        assertEquals("2026-11-29T16:04:05Z", Conditions.from(parent("Ready", "True", null), NOW)
                .set("Ready", true, "Available", "").list().get(0).getLastTransitionTime());
        assertEquals("2026-11-29T16:04:05Z", Conditions.from(parent("Ready", "True", "yesterday"), NOW)
                .set("Ready", true, "Available", "").list().get(0).getLastTransitionTime());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-01T24:00:00Z",
            "2026-11-01 00:00:00Z", "2026-11-01T00:00:00", "2026-11-01T00:00:00.Z", "2026-11-01T00:00:00+1:00", ""})
    void takesTheCurrentTimeWhenThePreviousOneIsNotRfc3339(String time) {
        assertEquals("2026-11-29T16:04:05Z", Conditions.from(parent("Ready", "True", time), NOW)
                .set("Ready", true, "Available", "").list().get(0).getLastTransitionTime());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-02-29T23:59:59Z", "2026-11-01T00:00:00.123456789Z", "2026-12-31T12:00:00-08:00"})
    void carriesForwardEveryRfc3339Time(String time) {
        assertEquals(time, Conditions.from(parent("Ready", "True", time), NOW)
                .set("Ready", true, "Available", "").list().get(0).getLastTransitionTime());
    }

    @Test
    void keepsTheOrderTheConditionsWereSetIn() {
        List<String> types = Conditions.from(empty(), NOW)
                .set("Ready", false, "Creating", "").set("Reconciling", true, "Creating", "").set("Stalled", false, "Creating", "")
                .set("Ready", false, "Creating", "again").list().stream().map(Condition::getType).toList();
        assertEquals(List.of("Ready", "Reconciling", "Stalled"), types);
    }

    @Test
    void refusesReasonsKubernetesWouldRefuse() {
        Conditions conditions = Conditions.from(empty(), NOW);
        assertThrows(IllegalArgumentException.class, () -> conditions.set("Ready", true, "not camel case", ""));
        assertThrows(IllegalArgumentException.class, () -> conditions.set("Ready", true, "Trailing,", ""));
    }

    @Test
    void truncatesMessagesToTheSchemaLimit() {
        String message = Conditions.from(empty(), NOW).set("Ready", true, "Available", "x".repeat(40000)).list().get(0).getMessage();
        assertEquals(32768, message.length());
    }

    @Test
    void setsTheKstatusSummaryInOneCall() {
        List<String> statuses = Conditions.from(empty(), NOW).reconciling("RollingOut", "1/3 updated").list().stream()
                .map(condition -> condition.getType() + "=" + condition.getStatus() + ":" + condition.getReason()).toList();
        assertEquals(List.of("Ready=False:RollingOut", "Reconciling=True:RollingOut", "Stalled=False:RollingOut"), statuses);
        assertEquals("True", Conditions.from(empty(), NOW).ready("Available", "").list().get(0).getStatus());
        assertEquals("True", Conditions.from(empty(), NOW).stalled("InvalidSpec", "").list().get(2).getStatus());
    }

    @Test
    void saysUnknownAndKeepsItsTransitionTimeWhileItStaysUnknown() {
        Condition ready = Conditions.from(parent("Ready", "Unknown", "2026-11-01T00:00:00Z"), NOW)
                .set("Ready", ConditionStatus.UNKNOWN, "Probing", "no answer from the primary yet").list().get(0);
        assertEquals("Unknown", ready.getStatus());
        assertEquals("2026-11-01T00:00:00Z", ready.getLastTransitionTime());
    }

    @Test
    void aTerminalExceptionRefusesAReasonKubernetesWouldRefuseWhereItIsMade() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new TerminalException("invalid spec", "spec.size: must be positive"));
        assertTrue(refused.getMessage().contains("'invalid spec' is not CamelCase"), refused.getMessage());
        assertEquals("InvalidSpec", new TerminalException("InvalidSpec", "x").reason());
    }
}
