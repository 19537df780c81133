package dev.metahook.internal.server;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.metahook.testing.Requests;
import dev.metahook.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hook calls need the configured credentials; health stays open; a rotated token works without a restart. */
class AuthTest {
    private static final byte[] REQUEST = Requests.bytes(Requests.sync(Requests.widget("hello", 3, "hi"), List.of(), false));

    @TempDir
    Path dir;

    private TestServer server(ServerConfig.Auth auth) {
        return TestServer.start(TestServer.widgets(), ServerConfig.defaults().withAuth(auth));
    }

    @Test
    void refusesMissingOrWrongBearerTokensAndAcceptsTheRightOne() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        try (TestServer server = server(new ServerConfig.Auth(token, null, null))) {
            given().port(server.port()).body(REQUEST).post("/widget/sync").then()
                    .statusCode(401).header("WWW-Authenticate", "Bearer realm=\"metahook\"").contentType("application/problem+json");
            given().port(server.port()).header("Authorization", "Bearer wrong").body(REQUEST).post("/widget/sync").then().statusCode(401);
            given().port(server.port()).header("Authorization", "Basic czNjcmV0LXRva2Vu").body(REQUEST).post("/widget/sync").then().statusCode(401);
            given().port(server.port()).header("Authorization", "Bearer s3cret-token").body(REQUEST).post("/widget/sync").then().statusCode(200);
            given().port(server.port()).get("/healthz").then().statusCode(200);
            given().port(server.port()).get("/readyz").then().statusCode(200);
            given().port(server.port()).get("/metrics").then().statusCode(200);
        }
    }

    @Test
    void acceptsARotatedTokenWithoutARestartAndBothDuringTheRotation() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "old-token\n");
        try (TestServer server = server(new ServerConfig.Auth(token, null, null))) {
            given().port(server.port()).header("Authorization", "Bearer old-token").body(REQUEST).post("/widget/sync").then().statusCode(200);
            Files.writeString(token, "old-token\nnew-token\n");
            Files.setLastModifiedTime(token, FileTime.from(Instant.now().plusSeconds(5)));
            assertEquals(200, eventually(server, "Bearer new-token", 200), "the new token is taken up");
            given().port(server.port()).header("Authorization", "Bearer old-token").body(REQUEST).post("/widget/sync").then().statusCode(200);
            Files.writeString(token, "new-token\n");
            Files.setLastModifiedTime(token, FileTime.from(Instant.now().plusSeconds(10)));
            assertEquals(401, eventually(server, "Bearer old-token", 401), "the old token is dropped");
            given().port(server.port()).header("Authorization", "Bearer new-token").body(REQUEST).post("/widget/sync").then().statusCode(200);
        }
    }

    @Test
    void checksBasicAuth() throws Exception {
        Path user = Files.writeString(dir.resolve("username"), "metacontroller");
        Path password = Files.writeString(dir.resolve("password"), "p4ss:word");
        try (TestServer server = server(new ServerConfig.Auth(null, user, password))) {
            given().port(server.port()).header("Authorization", basic("metacontroller", "p4ss:word")).body(REQUEST)
                    .post("/widget/sync").then().statusCode(200).body("children[0].metadata.name", equalTo("hello"));
            given().port(server.port()).header("Authorization", basic("metacontroller", "wrong")).body(REQUEST)
                    .post("/widget/sync").then().statusCode(401).header("WWW-Authenticate", "Basic realm=\"metahook\"");
            given().port(server.port()).header("Authorization", basic("someone", "p4ss:word")).body(REQUEST).post("/widget/sync").then().statusCode(401);
            given().port(server.port()).header("Authorization", "Basic !!!").body(REQUEST).post("/widget/sync").then().statusCode(401);
        }
    }

    /** The status a call with this Authorization header gets, asked again (the file is looked at once a second) until it is {@code wanted} or 30 s passed. */
    private static int eventually(TestServer server, String authorization, int wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int status;
        do {
            status = given().port(server.port()).header("Authorization", authorization).body(REQUEST).post("/widget/sync").then()
                    .extract().statusCode();
            if (status != wanted) {
                Thread.sleep(100);
            }
        } while (status != wanted && System.nanoTime() < deadline);
        return status;
    }

    @Test
    void aDeletedTokenFileRefusesEveryCallUntilItIsBack() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        try (TestServer server = server(new ServerConfig.Auth(token, null, null))) {
            given().port(server.port()).header("Authorization", "Bearer s3cret-token").body(REQUEST).post("/widget/sync").then().statusCode(200);
            Files.delete(token);
            assertEquals(401, eventually(server, "Bearer s3cret-token", 401), "fails closed");
            Files.writeString(token, "s3cret-token\n");
            assertEquals(200, eventually(server, "Bearer s3cret-token", 200), "and opens again");
        }
    }

    @Test
    void aTokenFileThatBeginsWithAByteOrderMarkAuthenticates() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "\uFEFFs3cret-token\r\n");
        try (TestServer server = server(new ServerConfig.Auth(token, null, null))) {
            given().port(server.port()).header("Authorization", "Bearer s3cret-token").body(REQUEST).post("/widget/sync").then().statusCode(200);
        }
    }

    @Test
    void anUnreadableTokenFileRefusesEveryCall() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        try (TestServer server = server(new ServerConfig.Auth(token, null, null))) {
            given().port(server.port()).header("Authorization", "Bearer s3cret-token").body(REQUEST).post("/widget/sync").then().statusCode(200);
            Files.delete(token);
            Files.createDirectory(token);
            assertEquals(401, eventually(server, "Bearer s3cret-token", 401));
        }
    }

    @Test
    void aTokenFileEmptiedThenDeletedRefusesCallsWithout500() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        try (TestServer server = server(new ServerConfig.Auth(token, null, null))) {
            Files.writeString(token, "");
            Files.setLastModifiedTime(token, FileTime.from(Instant.now().plusSeconds(5)));
            assertEquals(401, eventually(server, "Bearer s3cret-token", 401));
            Files.delete(token);
            for (int i = 0; i < 15; i++) {
                given().port(server.port()).header("Authorization", "Bearer s3cret-token").body(REQUEST).post("/widget/sync").then().statusCode(401);
                Thread.sleep(100);
            }
        }
    }

    @Test
    void bindsBasicAuthUserNamesToTheirPasswordsLineByLine() throws Exception {
        Path users = Files.writeString(dir.resolve("username"), "alice\nbob\n");
        Path passwords = Files.writeString(dir.resolve("password"), "alice-password\nbob-password\n");
        try (TestServer server = server(new ServerConfig.Auth(null, users, passwords))) {
            given().port(server.port()).header("Authorization", basic("alice", "alice-password")).body(REQUEST).post("/widget/sync").then().statusCode(200);
            given().port(server.port()).header("Authorization", basic("bob", "bob-password")).body(REQUEST).post("/widget/sync").then().statusCode(200);
            given().port(server.port()).header("Authorization", basic("alice", "bob-password")).body(REQUEST).post("/widget/sync").then().statusCode(401);
            given().port(server.port()).header("Authorization", basic("bob", "alice-password")).body(REQUEST).post("/widget/sync").then().statusCode(401);
        }
    }

    @Test
    void oneUserNameGoesWithEveryPasswordForRotation() throws Exception {
        Path users = Files.writeString(dir.resolve("username"), "metacontroller\n");
        Path passwords = Files.writeString(dir.resolve("password"), "old\nnew\n");
        try (TestServer server = server(new ServerConfig.Auth(null, users, passwords))) {
            given().port(server.port()).header("Authorization", basic("metacontroller", "old")).body(REQUEST).post("/widget/sync").then().statusCode(200);
            given().port(server.port()).header("Authorization", basic("metacontroller", "new")).body(REQUEST).post("/widget/sync").then().statusCode(200);
        }
    }

    @Test
    void refusesToStartWithFilesThatDoNotPairUpOrHoldNothing() throws Exception {
        Path users = Files.writeString(dir.resolve("username"), "alice\nbob\n");
        Path passwords = Files.writeString(dir.resolve("password"), "a\nb\nc\n");
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        assertEquals("AUTH_BASIC_USERNAME_FILE has 2 user names and AUTH_BASIC_PASSWORD_FILE 3 passwords: give one"
                + " user name for every password, or one user name per password, line by line",
                assertThrows(IllegalArgumentException.class,
                        () -> server(new ServerConfig.Auth(null, users, passwords))).getMessage());
        assertEquals("AUTH_BEARER_TOKEN_FILE " + empty + ": empty",
                assertThrows(IllegalArgumentException.class,
                        () -> server(new ServerConfig.Auth(empty, null, null))).getMessage());
    }

    /** A monotonic clock the test moves: {@link System#nanoTime()} readings. */
    private static final class Ticker implements java.util.function.LongSupplier {
        private long now = 1_000_000_000L;

        @Override
        public long getAsLong() {
            return now;
        }

        void advance(Duration by) {
            now += by.toNanos();
        }
    }

    /**
     * The wall clock steps back an hour (NTP, a VM restored): the replaced file's modification time is
     * an hour before the old one's, and its size is the same. Rotation runs on the monotonic clock and
     * compares content, so the new token is taken up at the next check and the removed one refused.
     */
    @Test
    void aTokenReplacedAfterTheClockSteppedBackAnHourIsTakenUp() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "old-token\n");
        FileTime before = Files.getLastModifiedTime(token);
        Ticker ticker = new Ticker();
        Authenticator authenticator = new Authenticator(new ServerConfig.Auth(token, null, null), ticker);
        assertTrue(authenticator.allows("Bearer old-token"));

        Files.writeString(token, "new-token\n");
        Files.setLastModifiedTime(token, FileTime.from(before.toInstant().minus(Duration.ofHours(1))));
        ticker.advance(Duration.ofMillis(500));
        assertTrue(authenticator.allows("Bearer old-token"), "the file is looked at once a second, not on every call");
        ticker.advance(Duration.ofMillis(500));
        assertTrue(authenticator.allows("Bearer new-token"), "the new token is taken up");
        assertFalse(authenticator.allows("Bearer old-token"), "the removed token is refused");
    }

    /** A swap that keeps size and modification time (a copy with {@code cp -p}, a coarse clock) is seen by its content. */
    @Test
    void aSameSizeSameTimeSwapIsSeen() throws Exception {
        Path users = Files.writeString(dir.resolve("username"), "metacontroller\n");
        Path passwords = Files.writeString(dir.resolve("password"), "password-1\n");
        FileTime written = Files.getLastModifiedTime(passwords);
        Ticker ticker = new Ticker();
        Authenticator authenticator = new Authenticator(new ServerConfig.Auth(null, users, passwords), ticker);
        assertTrue(authenticator.allows(basic("metacontroller", "password-1")));

        Files.writeString(passwords, "password-2\n");
        Files.setLastModifiedTime(passwords, written);
        ticker.advance(Duration.ofSeconds(1));
        assertTrue(authenticator.allows(basic("metacontroller", "password-2")));
        assertFalse(authenticator.allows(basic("metacontroller", "password-1")));
    }

    /**
     * With 10,000 users a wrong credential costs about what it costs with one: the user name is looked
     * up, not every pair hashed (which took 3 ms a call). Compared against the one-user peer in the
     * same run, interleaved, so the machine's load cancels out; the old cost was thousands of times the peer's.
     */
    @Test
    void basicAuthLooksTheUserUpInsteadOfHashingEveryPair() throws Exception {
        StringBuilder names = new StringBuilder();
        StringBuilder secrets = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            names.append("user-").append(i).append('\n');
            secrets.append("password-").append(i).append('\n');
        }
        Authenticator many = new Authenticator(new ServerConfig.Auth(null, Files.writeString(dir.resolve("users"), names),
                Files.writeString(dir.resolve("passwords"), secrets)), new Ticker());
        Authenticator one = new Authenticator(new ServerConfig.Auth(null, Files.writeString(dir.resolve("user"), "user-1\n"),
                Files.writeString(dir.resolve("password"), "password-1\n")), new Ticker());
        assertTrue(many.allows(basic("user-9876", "password-9876")));
        assertFalse(many.allows(basic("user-9876", "password-9875")), "line n goes with line n only");
        assertFalse(many.allows(basic("nobody", "password-1")));

        long manyNanos = Long.MAX_VALUE;
        long oneNanos = Long.MAX_VALUE;
        for (int round = 0; round < 20; round++) {
            manyNanos = Math.min(manyNanos, wrongCalls(many));
            oneNanos = Math.min(oneNanos, wrongCalls(one));
        }
        assertTrue(manyNanos < 20 * oneNanos, "10,000 users: " + manyNanos / 1000 + " us for 200 wrong calls, 1 user: " + oneNanos / 1000 + " us");
    }

    private static long wrongCalls(Authenticator authenticator) {
        long started = System.nanoTime();
        for (int i = 0; i < 200; i++) {
            assertFalse(authenticator.allows(basic("user-" + (i * 37 % 10_000), "wrong")));
        }
        return System.nanoTime() - started;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
