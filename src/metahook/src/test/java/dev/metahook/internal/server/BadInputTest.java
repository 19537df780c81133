package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import io.restassured.response.ValidatableResponse;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every kind of bad call gets its status code and a problem+json body naming the problem; the next call is fine. */
class BadInputTest {
    @RegisterExtension
    static final TestServer server = TestServer.of(() -> TestServer.widgets(), ServerConfig.defaults().withMaxBodySize(64 * 1024));

    @AfterEach
    void aGoodRequestStillGetsItsAnswer() {
        server.post("/widget/sync", Requests.bytes(Requests.sync(Requests.widget("after", 2, "ok"), List.of(), false)))
                .statusCode(200)
                .body("children[0].metadata.name", equalTo("after"));
    }

    private static ValidatableResponse problem(String path, String body, int status) {
        return server.post(path, body.getBytes(StandardCharsets.UTF_8)).statusCode(status)
                .contentType("application/problem+json")
                .body("status", equalTo(status))
                .body("detail", not(containsString("at dev.metahook")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not JSON | {\"parent\": | not valid JSON",
            "empty body | '' | request body is empty",
            "an array | [1,2] | the body is an array",
            "a string | \"sync\" | the body is a string",
            "no parent | {\"controller\":{},\"children\":{}} | /parent is missing",
            "parent not an object | {\"controller\":{},\"parent\":[],\"children\":{}} | /parent: expected an object, got an array",
            "parent without name | {\"controller\":{},\"parent\":{\"apiVersion\":\"test.metahook.dev/v1\",\"kind\":\"Widget\",\"metadata\":{}},\"children\":{}} | /parent/metadata/name: required field is missing",
            "children an array | {\"controller\":{},\"parent\":{\"apiVersion\":\"test.metahook.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"a\"}},\"children\":[]} | /children: expected an object map, got an array",
            "no children | {\"controller\":{},\"parent\":{\"apiVersion\":\"test.metahook.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"a\"}}} | /children: required field is missing",
            "bad group key | {\"controller\":{},\"parent\":{\"apiVersion\":\"test.metahook.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"a\"}},\"children\":{\"ConfigMap\":{}}} | not a group key",
            "finalizing a string | {\"controller\":{},\"parent\":{\"apiVersion\":\"test.metahook.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"a\"}},\"children\":{},\"finalizing\":\"yes\"} | /finalizing: expected a boolean",
            "duplicate key, the last one wins | {\"controller\":{},\"parent\":{\"kind\":\"Widget\"},\"parent\":{}} | /parent/kind: required field is missing",
            "decorator body on composite hook | {\"controller\":{},\"object\":{},\"attachments\":{}} | this is a DecoratorController request",
    })
    void refusesMalformedRequests(String what, String body, String detail) {
        problem("/widget/sync", body, 400)
                .body("type", equalTo("urn:metahook:problem:malformed-request"))
                .body("detail", containsString(detail));
    }

    @Test
    void namesTheFieldOfAnObservedChildThatIsNotAKubernetesObject() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false);
        request.withObjectProperty("children").withObjectProperty("ConfigMap.v1").putObject("broken").put("kind", "ConfigMap");
        problem("/widget/sync", new String(Requests.bytes(request), StandardCharsets.UTF_8), 400)
                .body("pointer", equalTo("/children/ConfigMap.v1/broken/apiVersion"));
    }

    @Test
    void namesAnObservedChildWhoseFieldsDoNotFitItsType() {
        ObjectNode child = Requests.observedConfigMap("hello", 1, "hi");
        child.put("data", "not a map");
        byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(child), false));
        problem("/widget/sync", new String(request, StandardCharsets.UTF_8), 400)
                .body("pointer", equalTo("/children/ConfigMap.v1/hello/data"))
                .body("detail", containsString("/children/ConfigMap.v1/hello/data: cannot be read as ConfigMap"));
    }

    /**
     * Kubernetes is written in Go: a list never holds a null, so one in an observed child is a bad
     * request naming its place (it was a 500 with the controller's NullPointerException), while a null
     * list is Go's empty one and reads as empty.
     */
    @Test
    void aNullInAListOfAnObservedChildIs400NamingItAndANullListIsEmpty() {
        ObjectNode child = Requests.observedConfigMap("hello", 1, "hi");
        child.withObjectProperty("metadata").putArray("ownerReferences").addNull();
        byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(child), false));
        problem("/widget/sync", new String(request, StandardCharsets.UTF_8), 400)
                .body("pointer", equalTo("/children/ConfigMap.v1/hello/metadata/ownerReferences/0"))
                .body("detail", not(containsString("Exception")));

        ObjectNode nullList = Requests.observedConfigMap("hello", 1, "hi");
        nullList.withObjectProperty("metadata").putNull("finalizers");
        server.post("/widget/sync", Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(nullList), false)))
                .statusCode(200);
    }

    /** A controller reads these times (the Database teardown's deadline); one that is not RFC 3339 is a 400 naming it, not a 500. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "parent deletionTimestamp | parent | deletionTimestamp | /parent/metadata/deletionTimestamp",
            "parent creationTimestamp | parent | creationTimestamp | /parent/metadata/creationTimestamp",
            "child deletionTimestamp | child | deletionTimestamp | /children/ConfigMap.v1/hello/metadata/deletionTimestamp",
    })
    void anUnreadableTimestampIs400NamingIt(String what, String where, String field, String pointer) {
        ObjectNode parent = Requests.widget("hello", 1, "hi");
        ObjectNode child = Requests.observedConfigMap("hello", 1, "hi");
        (where.equals("parent") ? parent : child).withObjectProperty("metadata").put(field, "yesterday");
        byte[] request = Requests.bytes(Requests.sync(parent, List.of(child), false));
        problem("/widget/sync", new String(request, StandardCharsets.UTF_8), 400)
                .body("pointer", equalTo(pointer))
                .body("detail", containsString("'yesterday' is not a time"));
    }

    @Test
    void namesAnObservedChildWhoseNameIsNotItsKey() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false);
        request.withObjectProperty("children").withObjectProperty("ConfigMap.v1").set("hello", Requests.observedConfigMap("other", 1, "hi"));
        problem("/widget/sync", new String(Requests.bytes(request), StandardCharsets.UTF_8), 400)
                .body("pointer", equalTo("/children/ConfigMap.v1/hello/metadata/name"))
                .body("detail", containsString("is other, but its key hello says hello"));
    }

    /** A child the controller never reads is checked all the same: its place in the request must say what it is. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "name is not its key | Secret.v1 | other | {\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"hello-credentials\",\"namespace\":\"default\"}} | /children/Secret.v1/other/metadata/name | is hello-credentials, but its key other says other",
            "kind of another group | Secret.v1 | hello | {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"hello\"}} | /children/Secret.v1/hello | object is ConfigMap.v1 but sits in group Secret.v1",
            "apiVersion of another group | Secret.v1 | hello | {\"apiVersion\":\"v2\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"hello\"}} | /children/Secret.v1/hello | object is Secret.v2 but sits in group Secret.v1",
            "namespace is not its key's | Secret.v1 | default/hello | {\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"hello\",\"namespace\":\"prod\"}} | /children/Secret.v1/default~1hello/metadata/namespace | is prod, but its key default/hello says default",
            "escaped name that is its key | Secret.v1 | hello | {\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"h\\u0065llo\"},\"metadata\":{\"name\":\"other\"}} | /children/Secret.v1/hello/metadata/name | is other, but its key hello says hello",
            "no metadata | Secret.v1 | hello | {\"apiVersion\":\"v1\",\"kind\":\"Secret\"} | /children/Secret.v1/hello/metadata | required field is missing",
            "name not a string | Secret.v1 | hello | {\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":7}} | /children/Secret.v1/hello/metadata/name | expected a non-empty string",
    })
    void checksTheIdentityOfEveryObservedChildReadOrNot(String what, String group, String key, String child, String pointer, String detail) {
        String request = new String(Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false)), StandardCharsets.UTF_8)
                .replace("\"children\":{", "\"children\":{\"" + group + "\":{\"" + key + "\":" + child + "},");
        problem("/widget/sync", request, 400)
                .body("pointer", equalTo(pointer))
                .body("detail", containsString(detail));
    }

    @Test
    void acceptsAChildWhoseIdentityIsWrittenWithEscapes() {
        String request = new String(Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false)), StandardCharsets.UTF_8)
                .replace("\"children\":{", "\"children\":{\"Secret.v1\":{\"default/h\u00e9llo\":{\"apiVersion\":\"v\\u0031\","
                        + "\"kind\":\"Secret\",\"metadata\":{\"namespace\":\"default\",\"name\":\"h\\u00e9llo\"}}},");
        server.post("/widget/sync", request.getBytes(StandardCharsets.UTF_8)).statusCode(200);
    }

    @Test
    void namesAKeptChildWhoseMetadataIsMalformedEvenThoughItsAnnotationIsFine() {
        ObjectNode child = Requests.observedConfigMap("hello", 1, "hi");
        child.withObjectProperty("metadata").put("namespace", 7);
        byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", -1, "hi"), List.of(child), false));
        problem("/widget/sync", new String(request, StandardCharsets.UTF_8), 400)
                .body("pointer", equalTo("/children/ConfigMap.v1/hello/metadata/namespace"));
    }

    /** The bytes of a request whose text has {@code NAME} replaced by raw bytes, UTF-8 or not. */
    private static byte[] withRawBytes(String request, byte[] raw) {
        String[] parts = request.split("NAME", 2);
        byte[] before = parts[0].getBytes(StandardCharsets.UTF_8);
        byte[] after = parts[1].getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[before.length + raw.length + after.length];
        System.arraycopy(before, 0, out, 0, before.length);
        System.arraycopy(raw, 0, out, before.length, raw.length);
        System.arraycopy(after, 0, out, before.length + raw.length, after.length);
        return out;
    }

    /** Overlong {@code /} (C0 AF) and a CESU-8 surrogate pair (ED A0 80 ED B0 80): not UTF-8, wherever they are. */
    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource({"C0AF, parent", "EDA080EDB080, parent", "C0AF, child", "EDA080EDB080, child", "C0AF, customize", "C0AF, controller",
            "FF, parent"})
    void refusesBytesThatAreNotUtf8InEveryPartOfARequest(String hex, String where) {
        byte[] raw = HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
        String placeholder = "hel" + "NAME" + "lo";
        ObjectNode request = Requests.sync(Requests.widget(where.equals("parent") || where.equals("customize") ? placeholder : "hello", 1, "hi"),
                where.equals("child") ? List.of(Requests.observedConfigMap("hello", 1, placeholder)) : List.of(), false);
        if (where.equals("controller")) {
            request.withObjectProperty("controller").withObjectProperty("metadata").put("name", placeholder);
        }
        String text = new String(Requests.bytes(request), StandardCharsets.UTF_8);
        String path = "/widget/sync";
        if (where.equals("customize")) {
            text = "{\"controller\":{},\"parent\":" + request.get("parent") + "}";
            path = "/widget/customize";
        }
        byte[] body = withRawBytes(text, raw);
        server.post(path, body)
                .statusCode(400)
                .contentType("application/problem+json")
                .body("detail", containsString("not UTF-8"));
    }

    @Test
    void refusesAParentOfAnotherKind() {
        ObjectNode request = Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false);
        request.withObjectProperty("parent").put("kind", "Gadget");
        problem("/widget/sync", new String(Requests.bytes(request), StandardCharsets.UTF_8), 400)
                .body("detail", containsString("/parent is Gadget test.metahook.dev/v1, but this controller serves Widget"));
    }

    @Test
    void refusesAFinalizeCallThatIsNotFinalizing() {
        byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", 1, "hi"), List.of(), false));
        server.post("/widget/finalize", request).statusCode(400).body("pointer", equalTo("/finalizing"));
    }

    @Test
    void answersUnknownControllerWith404() {
        problem("/gadget/sync", "{}", 404).body("detail", containsString("no controller is named 'gadget'"));
    }

    @Test
    void answersUnknownHookWith404() {
        problem("/widget/resync", "{}", 404).body("detail", containsString("has no hook 'resync'"));
    }

    @Test
    void answersOtherPathsWith404() {
        given().port(server.port()).post("/widget/sync/extra").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void answersWrongMethodWith405() {
        given().port(server.port()).get("/widget/sync").then()
                .statusCode(405)
                .header("Allow", "POST")
                .contentType("application/problem+json");
    }

    @Test
    void answersBodyOverTheLimitWith413() {
        String big = "{\"pad\":\"" + "x".repeat(70 * 1024) + "\"}";
        problem("/widget/sync", big, 413).body("detail", containsString("65536 bytes"));
    }

    @Test
    void readsAChunkedBodyAndRefusesOneOverTheLimit() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        byte[] good = Requests.bytes(Requests.sync(Requests.widget("chunked", 2, "ok"), List.of(), false));
        byte[] big = ("{\"pad\":\"" + "x".repeat(70 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        for (byte[] body : List.of(good, big)) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.port() + "/widget/sync"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(body == good ? 200 : 413, response.statusCode(), response.body());
        }
    }

    @Test
    void answersTransientErrorsWith429AndRetryAfter() {
        server.post("/widget/sync", Requests.bytes(Requests.sync(Requests.widget("hello", 1, "retry"), List.of(), false)))
                .statusCode(429)
                .header("Retry-After", "7");
    }

    @Test
    void answersBugsWith500AndNoStackTrace() {
        server.post("/widget/sync", Requests.bytes(Requests.sync(Requests.widget("hello", 1, "boom"), List.of(), false)))
                .statusCode(500)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:metahook:problem:controller-failed"))
                .body("detail", equalTo("controller widget failed on Widget default/hello: IllegalStateException: boom"));
    }
}
