package dev.metahook.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a request body up to a limit, without ever holding more than the limit in memory. */
final class BodyReader {
    private BodyReader() {
    }

    /**
     * The body, or null when it is larger than {@code limit}. A declared length (HTTP/1.1 holds the
     * body to it) is read straight into an array of that size; a chunked body is gathered up to the limit.
     */
    static byte[] read(InputStream in, long declaredLength, long limit) throws IOException {
        if (declaredLength > limit) {
            return null;
        }
        if (declaredLength >= 0) {
            return in.readNBytes((int) declaredLength);
        }
        int initial = (int) Math.min(Math.max(declaredLength, 8192), limit);
        ByteArrayOutputStream out = new ByteArrayOutputStream(initial);
        byte[] buffer = new byte[16384];
        long total = 0;
        for (int n; (n = in.read(buffer)) != -1; ) {
            total += n;
            if (total > limit) {
                return null;
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }
}
