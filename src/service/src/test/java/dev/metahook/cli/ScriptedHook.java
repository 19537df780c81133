package dev.metahook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A hook written in no framework at all, answering whatever a test scripts: how the hooks of other
 * languages look to {@code check}. The well-behaved script keeps one ConfigMap per parent and lets
 * go on finalize once it is gone; tests break it one way at a time.
 */
final class ScriptedHook implements AutoCloseable {
    /** What the hook answers: status code and body, after an optional delay. */
    record Answer(int status, String body, long delayMillis) {
        static Answer ok(JsonNode body) {
            return new Answer(200, body.toString(), 0);
        }
    }

    private final HttpServer server;
    /** Every call on a thread of its own: a slow answer holds neither the next call nor {@link #close}. */
    private final ExecutorService calls = Executors.newCachedThreadPool(work -> {
        Thread thread = new Thread(work, "scripted-hook");
        thread.setDaemon(true);
        return thread;
    });

    ScriptedHook(Function<JsonNode, Answer> script) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            Answer answer = script.apply(Json.parse(exchange.getRequestBody().readAllBytes()));
            sleep(answer.delayMillis());
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.setExecutor(calls);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        calls.shutdownNow();
    }

    /** The well-behaved answer for a Widget: its ConfigMap and a status from observed state only. */
    static ObjectNode wellBehaved(JsonNode request) {
        String name = request.at("/parent/metadata/name").asText();
        int observed = request.at("/children/ConfigMap.v1").size();
        ObjectNode response = Json.object();
        if (request.path("finalizing").asBoolean()) {
            response.putArray("children");
            response.putObject("status").put("phase", "Deleting");
            response.put("finalized", observed == 0);
            return response;
        }
        ObjectNode child = response.putArray("children").addObject().put("apiVersion", "v1").put("kind", "ConfigMap");
        child.putObject("metadata").put("name", name).putObject("labels").put("app", "widget");
        child.putObject("data").put("size", request.at("/parent/spec/size").asText());
        response.putObject("status").put("configMaps", observed);
        return response;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
