package dev.metahook.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the end-to-end suite counts as stored as applied: the server may add fields, never drop or change one. */
class AppliedManifestsTest {
    private static JsonNode json(String text) {
        return Json.parse(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> lost(String sent, String stored) {
        List<String> out = new ArrayList<>();
        AppliedManifests.notKept(json(sent), json(stored), "", out, "Service s");
        return out;
    }

    @Test
    void defaultsTheServerAddsAreKeptAsApplied() {
        assertEquals(List.of(), lost("{'spec':{'ports':[{'port':80}]}}",
                "{'spec':{'type':'ClusterIP','ports':[{'port':80,'protocol':'TCP','targetPort':80}]},'status':{}}"));
    }

    @Test
    void aPrunedFieldAChangedValueAndALostListItemAreNamed() {
        assertEquals(List.of("Service s /spec/retries: 3 stored as nothing", "Service s /spec/name: \"a\" stored as \"b\"",
                        "Service s /spec/ports: [1,2] stored as [1]"),
                lost("{'spec':{'retries':3,'name':'a','ports':[1,2]}}", "{'spec':{'name':'b','ports':[1]}}"));
    }

    @Test
    void numbersAreComparedByValue() {
        assertEquals(List.of(), lost("{'a':1}", "{'a':1.0}"));
    }
}
