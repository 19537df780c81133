package dev.metahook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.wire.Json;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConditionsTest {
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-29T16:04:05.789Z"), ZoneOffset.UTC);

    private static ObjectNode parent(String type, String status, String lastTransitionTime) {
        ObjectNode parent = Json.object();
        parent.putObject("metadata").put("name", "p").put("generation", 7);
        ObjectNode condition = parent.putObject("status").putArray("conditions").addObject().put("type", type).put("status", status);
        if (lastTransitionTime != null) {
            condition.put("lastTransitionTime", lastTransitionTime);
        }
        return parent;
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
        List<String> types = Conditions.from(Json.object(), NOW)
                .set("Ready", false, "Creating", "").set("Reconciling", true, "Creating", "").set("Stalled", false, "Creating", "")
                .set("Ready", false, "Creating", "again").list().stream().map(Condition::getType).toList();
        assertEquals(List.of("Ready", "Reconciling", "Stalled"), types);
    }

    @Test
    void refusesReasonsKubernetesWouldRefuse() {
        Conditions conditions = Conditions.from(Json.object(), NOW);
        assertThrows(IllegalArgumentException.class, () -> conditions.set("Ready", true, "not camel case", ""));
        assertThrows(IllegalArgumentException.class, () -> conditions.set("Ready", true, "Trailing,", ""));
    }

    @Test
    void truncatesMessagesToTheSchemaLimit() {
        String message = Conditions.from(Json.object(), NOW).set("Ready", true, "Available", "x".repeat(40000)).list().get(0).getMessage();
        assertEquals(32768, message.length());
    }
}
