package dev.metahook.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The request and response bodies under {@code src/test/resources/fixtures}. */
public final class Fixtures {
    private Fixtures() {
    }

    public static byte[] bytes(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode json(String path) {
        return Json.parse(bytes(path));
    }
}
