package dev.metahook.internal.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a request body up to a limit, without ever holding more than the limit in memory, and without
 * copies the memory budget does not charge: a declared length is read into one array of that size; a
 * chunked body is gathered in chunks, then joined into one array (twice its bytes at the join).
 */
final class BodyReader {
    private static final int CHUNK = 1024 * 1024;

    private BodyReader() {
    }

    /**
     * The body, or null when it is larger than {@code limit}. A declared length (HTTP/1.1 holds the
     * body to it) is read straight into an array of that size; a body that ends before it is what came.
     */
    static byte[] read(InputStream in, long declaredLength, long limit) throws IOException {
        if (declaredLength > limit) {
            return null;
        }
        if (declaredLength >= 0) {
            byte[] body = new byte[(int) declaredLength];
            int n = in.readNBytes(body, 0, body.length);
            return n == body.length ? body : Arrays.copyOf(body, n);
        }
        List<byte[]> chunks = new ArrayList<>();
        long total = 0;
        while (true) {
            byte[] chunk = new byte[(int) Math.min(CHUNK, limit - total + 1)];
            int n = in.readNBytes(chunk, 0, chunk.length);
            total += n;
            if (total > limit) {
                return null;
            }
            chunks.add(n == chunk.length ? chunk : Arrays.copyOf(chunk, n));
            if (n < chunk.length) {
                break;
            }
        }
        byte[] body = new byte[(int) total];
        int at = 0;
        for (byte[] chunk : chunks) {
            System.arraycopy(chunk, 0, body, at, chunk.length);
            at += chunk.length;
        }
        return body;
    }
}
