package dev.metahook.testing;

import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import org.apache.http.ConnectionReuseStrategy;
import org.apache.http.HttpResponseInterceptor;
import org.apache.http.entity.BufferedHttpEntity;
import org.apache.http.impl.NoConnectionReuseStrategy;
import org.apache.http.impl.client.DefaultHttpClient;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The test clients close their connection once they have read an answer, so that stopping a test
 * server finds no idle keep-alive connection to wait for (a graceful stop waits for every open
 * connection: a client that leaves one open cost each test 5 to 10 s). Registered for every test
 * engine in {@code META-INF/services}, before any test runs:
 * <ul>
 * <li>REST-assured makes a new HTTP client for every request and never closes it, leaving its
 * connection open until the client is collected; here that client does not keep the connection.
 * The request bytes are the same: no {@code Connection: close} is sent.
 * <li>{@code java.net.http.HttpClient} (the tests' and {@code check}'s own) has no {@code close} in
 * Java 17 and keeps idle connections for 20 minutes; {@code jdk.httpclient.keepalive.timeout=0}
 * closes them once idle. A client built before this runs keeps the default, so nothing may build one
 * at discovery.
 * </ul>
 * Tests of keep-alive itself speak over {@link RawHttp} sockets, which this does not touch.
 */
public final class ClosingClients implements LauncherSessionListener {
    static final String JDK_KEEP_ALIVE = "jdk.httpclient.keepalive.timeout";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        System.setProperty(JDK_KEEP_ALIVE, "0");
        RestAssured.config = RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
                .httpClientFactory(ClosingClients::restAssuredClient));
    }

    /**
     * The client REST-assured would make ({@code HttpClientConfig}'s default), except that it reads each
     * answer whole as it arrives and then closes the connection: REST-assured reads a body only when a
     * test looks at it, and an unread body would hold the connection open.
     */
    @SuppressWarnings("deprecation")
    private static DefaultHttpClient restAssuredClient() {
        DefaultHttpClient client = new DefaultHttpClient() {
            @Override
            protected ConnectionReuseStrategy createConnectionReuseStrategy() {
                return NoConnectionReuseStrategy.INSTANCE;
            }
        };
        client.addResponseInterceptor((HttpResponseInterceptor) (response, context) -> {
            if (response.getEntity() != null) {
                response.setEntity(new BufferedHttpEntity(response.getEntity()));
            }
        });
        return client;
    }
}
