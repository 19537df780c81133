package dev.metahook.controllers;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.controllers.database.Database;
import dev.metahook.controllers.database.DatabaseController;
import dev.metahook.controllers.webapp.WebApp;
import dev.metahook.controllers.webapp.WebAppController;
import dev.metahook.api.Controllers;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;

/** The reference controllers behind a real server, as {@code java -jar} serves them. */
final class ReferenceServer {
    static final byte[] KEY = "a key shared by every replica".getBytes(StandardCharsets.UTF_8);
    /** The uids the example WebApp and Database have in every request these tests build. */
    static final String WEBAPP_UID = "3b7c1a52-9d0e-4f6a-8b2c-1d2e3f4a5b6c";
    static final String DATABASE_UID = "95f23acc-4f64-458f-99de-587fb4aaf8c8";

    private ReferenceServer() {
    }

    /** Both reference controllers, as the service registers them. */
    static Controllers controllers() {
        return Controllers.builder()
                .composite("webapp", WebApp.class, new WebAppController())
                .composite("database", Database.class, new DatabaseController(KEY))
                .build();
    }

    /** POSTs the request and returns the 200 answer as a tree. */
    static JsonNode call(TestServer server, String path, ObjectNode request) {
        byte[] body = server.post(path, Requests.bytes(request)).statusCode(200).extract().asByteArray();
        return Json.parse(body);
    }

    /** The child of that kind and name in an answer. */
    static JsonNode child(JsonNode response, String kind, String name) {
        for (JsonNode child : response.get("children")) {
            if (kind.equals(child.path("kind").asText()) && name.equals(child.path("metadata").path("name").asText())) {
                return child;
            }
        }
        throw new AssertionError("no " + kind + " " + name + " in " + response.get("children"));
    }

    /** "Type=Status/Reason" for each condition, in order: one row of a conditions table. */
    static String conditions(JsonNode response) {
        StringBuilder out = new StringBuilder();
        for (JsonNode condition : response.at("/status/conditions")) {
            if (out.length() > 0) {
                out.append(' ');
            }
            out.append(condition.get("type").asText()).append('=').append(condition.get("status").asText())
                    .append('/').append(condition.get("reason").asText());
        }
        return out.toString();
    }
}
