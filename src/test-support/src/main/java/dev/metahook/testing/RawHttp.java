package dev.metahook.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * HTTP/1.1 over a raw loopback socket, for requests no HTTP client will send: broken framing, bad
 * headers, a body cut short. Reads one response (by its Content-Length, chunks or the connection's end).
 */
public final class RawHttp {
    private RawHttp() {
    }

    /** One response: status, headers by lower-case name, body. */
    public record Response(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Sends the request bytes and reads the answer; with {@code halfClose} the client then shuts its output. */
    public static Response send(int port, byte[] request, boolean halfClose) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            if (halfClose) {
                socket.shutdownOutput();
            }
            return read(socket.getInputStream());
        }
    }

    public static Response send(int port, String request, boolean halfClose) throws IOException {
        return send(port, request.getBytes(StandardCharsets.ISO_8859_1), halfClose);
    }

    /** Reads one response from a stream. */
    public static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("the connection closed without an answer");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (String line; (line = line(in)) != null && !line.isEmpty(); ) {
            int colon = line.indexOf(':');
            headers.merge(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim(), (a, b) -> a + ", " + b);
        }
        byte[] body;
        if (headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int size; (size = Integer.parseInt(line(in).trim(), 16)) > 0; ) {
                out.write(in.readNBytes(size));
                line(in);
            }
            line(in);
            body = out.toByteArray();
        } else if (status == 304 || status == 204) {
            body = new byte[0];
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != -1; ) {
            if (c == '\n') {
                String text = out.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            out.write(c);
        }
        return out.size() == 0 ? null : out.toString(StandardCharsets.ISO_8859_1);
    }
}
