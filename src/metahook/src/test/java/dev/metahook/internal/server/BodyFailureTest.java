package dev.metahook.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;
import org.junit.jupiter.api.Test;

/** How a failed body read is answered: a body that stopped coming is a 408 however Jetty says so; broken framing a 400. */
class BodyFailureTest {

    @Test
    void aBodyThatStoppedComingIsA408WhetherATimeoutOrJettys408() {
        assertEquals(408, BodyFailure.of(new IOException(new TimeoutException("idle"))).orElseThrow().status());
        HttpException slow = new HttpException.RuntimeException(408, "Request body rate too low");
        assertEquals(408, BodyFailure.of(new IOException((Throwable) slow)).orElseThrow().status());
        assertEquals("body-timeout", BodyFailure.of((Throwable) slow).orElseThrow().type().replaceAll(".*:", ""));
    }

    @Test
    void brokenFramingIsA400() {
        assertEquals(400, BodyFailure.of(new HttpException.RuntimeException(400, "bad chunk")).orElseThrow().status());
        assertEquals(400, BodyFailure.of(new EOFException("early EOF")).orElseThrow().status());
    }

    @Test
    void aFailureThatIsNotTheClientsIsLeftToTheCaller() {
        assertTrue(BodyFailure.of(new IllegalStateException("ours")).isEmpty());
    }
}
