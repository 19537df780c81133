package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Result;
import dev.metahook.internal.wire.Json;
import dev.metahook.testing.Requests;
import dev.metahook.testing.Scrapes;
import dev.metahook.testing.TestServer;
import dev.metahook.testing.Widget;
import dev.metahook.testing.WidgetController;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every query of the Grafana dashboard names metrics a running service really exposes on /metrics. */
class DashboardTest {
    static final Path DASHBOARD = Path.of("src/manifests/grafana/metahook-dashboard.json");
    private static final Pattern METRIC = Pattern.compile("\\b(?:metahook|jvm|process|system|jetty)_[a-zA-Z0-9_]+");

    @Test
    void everyQueryNamesAnExposedMetric() throws Exception {
        JsonNode dashboard = Json.mapper().readTree(Files.readString(DASHBOARD));
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            assertFalse(panel.path("targets").isEmpty(), panel.path("title").asText());
            panel.path("targets").forEach(target -> queries.add(target.path("expr").asText()));
        }
        dashboard.at("/templating/list").forEach(variable -> {
            if (variable.path("type").asText().equals("query")) {
                queries.add(variable.path("query").asText());
            }
        });
        assertTrue(queries.size() >= 8, queries.toString());

        Set<String> exposed = new TreeSet<>();
        try (TestServer server = TestServer.start(Controllers.builder()
                .composite("widget", Widget.class, new WidgetController())
                .composite("omits", Widget.class, (w, c) -> Result.of())
                .build())) {
            byte[] body = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));
            given().port(server.port()).body(body).post("/widget/sync").then().statusCode(200);
            byte[] observed = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                    List.of(Requests.observedConfigMap("hello", 3, "hi")), false));
            given().port(server.port()).body(observed).post("/omits/sync").then().statusCode(500);
            String metrics = Scrapes.showing(server.port(), "metahook_hook_refused_total{controller=\"omits\"");
            for (String line : metrics.split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    exposed.add(line.split("[{ ]", 2)[0]);
                }
            }
        }
        Set<String> named = new TreeSet<>();
        for (String query : queries) {
            Matcher metric = METRIC.matcher(query);
            boolean any = false;
            while (metric.find()) {
                named.add(metric.group());
                any = true;
            }
            assertTrue(any, "a query that names no metric: " + query);
        }
        Set<String> missing = new TreeSet<>(named);
        missing.removeAll(exposed);
        assertEquals(Set.of(), missing, "named by the dashboard, not on /metrics (exposed: " + exposed + ")");
        assertTrue(named.containsAll(Set.of("metahook_hook_requests_seconds_bucket", "metahook_hook_requests_seconds_count",
                "metahook_hook_refused_total", "metahook_hook_in_flight", "metahook_build_info", "jetty_threads_busy",
                "jetty_connections_current_connections", "jetty_connections_request_seconds_count")), named.toString());
    }
}
