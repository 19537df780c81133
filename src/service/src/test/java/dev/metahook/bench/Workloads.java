package dev.metahook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The request bodies of the benchmark, compact as Metacontroller sends them: a WebApp sync captured
 * from a real Metacontroller (about 12 KB), the same with 1 to 1,000 more observed Deployments (about
 * 5 KB each) that the controller deletes, and a Database sync and finalize.
 */
public final class Workloads {
    private Workloads() {
    }

    public static Map<String, byte[]> all() throws IOException {
        Map<String, byte[]> workloads = new LinkedHashMap<>();
        JsonNode webApp = resource("/fixtures/captured/v1.5.14-webapp-sync-observed.request.json");
        workloads.put("webapp-sync", CanonicalJson.bytes(webApp));
        for (int extra : new int[] {1, 10, 100, 1000}) {
            workloads.put("webapp-sync-" + extra, CanonicalJson.bytes(withLeftovers(webApp, extra)));
        }
        workloads.put("database-sync", CanonicalJson.bytes(Json.parse(Files.readAllBytes(Path.of("examples/requests/database-sync.json")))));
        workloads.put("database-finalize", CanonicalJson.bytes(Json.parse(Files.readAllBytes(Path.of("examples/requests/database-finalize-drain.json")))));
        return workloads;
    }

    /** The WebApp request with {@code count} more observed Deployments: old names the controller deletes. */
    static JsonNode withLeftovers(JsonNode request, int count) {
        ObjectNode copy = request.deepCopy();
        ObjectNode deployments = (ObjectNode) copy.at("/children/Deployment.apps~1v1");
        JsonNode template = deployments.get("hello");
        for (int i = 0; i < count; i++) {
            ObjectNode leftover = template.deepCopy();
            String name = "hello-old-" + i;
            ((ObjectNode) leftover.get("metadata")).put("name", name).put("uid", String.format("00000000-0000-4000-8000-%012d", i));
            deployments.set(name, leftover);
        }
        return copy;
    }

    /** Writes every workload to {@code <dir>/<name>.json}. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/bench");
        Files.createDirectories(dir);
        for (var workload : all().entrySet()) {
            Files.write(dir.resolve(workload.getKey() + ".json"), workload.getValue());
            System.out.println(workload.getKey() + " " + workload.getValue().length);
        }
    }

    private static JsonNode resource(String path) throws IOException {
        try (InputStream in = Workloads.class.getResourceAsStream(path)) {
            return Json.parse(in.readAllBytes());
        }
    }
}
