package dev.metahook.spring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * Hook calls over HTTP, as Metacontroller makes them. The parent's status holds the conditions the controller sets,
 * so that their {@code lastTransitionTime} is carried and an answer is the same whenever it is made.
 */
final class HookCalls {
    static final String SYNC = "{\"controller\":{\"apiVersion\":\"metacontroller.k8s.io/v1alpha1\",\"kind\":\"CompositeController\","
            + "\"metadata\":{\"name\":\"greeting-controller\"},\"spec\":{\"generateSelector\":true,\"childResources\":"
            + "[{\"apiVersion\":\"v1\",\"resource\":\"configmaps\"}]}},\"parent\":{\"apiVersion\":\"example.com/v1\","
            + "\"kind\":\"Greeting\",\"metadata\":{\"name\":\"hi\",\"namespace\":\"default\",\"uid\":\"u-1\",\"generation\":1},"
            + "\"spec\":{\"message\":\"hello\"},\"status\":{\"observed\":0,\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\","
            + "\"reason\":\"Written\",\"message\":\"the ConfigMap holds the message\",\"lastTransitionTime\":\"2026-12-01T00:00:00Z\","
            + "\"observedGeneration\":1},"
            + "{\"type\":\"Reconciling\",\"status\":\"False\",\"reason\":\"Written\",\"message\":\"the ConfigMap holds the message\",\"lastTransitionTime\":\"2026-12-01T00:00:00Z\",\"observedGeneration\":1},"
            + "{\"type\":\"Stalled\",\"status\":\"False\",\"reason\":\"Written\",\"message\":\"the ConfigMap holds the message\",\"lastTransitionTime\":\"2026-12-01T00:00:00Z\",\"observedGeneration\":1}"
            + "]}},\"children\":{\"ConfigMap.v1\":{}},\"related\":{},\"finalizing\":false}";

    private HookCalls() {
    }

    static HttpResponse<byte[]> post(int port, String path, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    }
}
