package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** One structured line per hook call, with the fields an operator filters on. */
class CallLogTest {

    @Test
    void logsOneLinePerCallWithItsFields() {
        Logger calls = (Logger) LoggerFactory.getLogger("metahook.calls");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        calls.addAppender(appender);
        double firstCallMillis;
        try (TestServer server = TestServer.start(TestServer.widgets())) {
            byte[] request = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"),
                    List.of(Requests.observedConfigMap("hello", 3, "hi")), false));
            long started = System.nanoTime();
            given().port(server.port()).header("Authorization", "Bearer not-logged").body(request).post("/widget/sync").then().statusCode(200);
            firstCallMillis = (System.nanoTime() - started) / 1e6;
            given().port(server.port()).body("[]").post("/widget/sync").then().statusCode(400);
            given().port(server.port()).body(Requests.bytes(Requests.sync(Requests.widget("hello", -1, "hi"), List.of(), false)))
                    .post("/widget/sync").then().statusCode(200);
        } finally {
            calls.detachAppender(appender);
        }
        assertEquals(3, appender.list.size());
        Map<String, String> first = fields(appender.list.get(0));
        assertEquals("widget", first.get("controller"));
        assertEquals("sync", first.get("hook"));
        assertEquals("default/hello", first.get("parent"));
        assertEquals("2", first.get("generation"));
        assertEquals("synced", first.get("outcome"));
        assertEquals("200", first.get("status"));
        assertEquals("1", first.get("observed"));
        assertEquals("1", first.get("desired"));
        double logged = Double.parseDouble(first.get("durationMs"));
        assertTrue(logged > 0 && logged <= firstCallMillis, "the logged duration " + logged + " ms is this call's, at most the "
                + firstCallMillis + " ms the client waited");
        assertEquals("hook call", appender.list.get(0).getFormattedMessage());
        assertEquals(false, appender.list.get(0).toString().contains("not-logged"), "credentials are never logged");
        assertEquals("malformed-request", fields(appender.list.get(1)).get("outcome"));
        assertEquals("400", fields(appender.list.get(1)).get("status"));
        assertEquals("stalled", fields(appender.list.get(2)).get("outcome"), "an invalid spec is logged as stalled");
    }

    private static Map<String, String> fields(ILoggingEvent event) {
        return event.getKeyValuePairs().stream().collect(Collectors.toMap(pair -> pair.key, pair -> String.valueOf(pair.value)));
    }
}
