package dev.metahook.reliability;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** HTTP/1.1 over a socket, so the suite sees exactly what the server sent and when a connection closed. */
final class Http {
    private Http() {
    }

    record Response(int status, Map<String, String> headers, byte[] body) {
        boolean closes() {
            return "close".equalsIgnoreCase(headers.getOrDefault("connection", ""));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** The request line and headers of a call with a body of {@code length} bytes. */
    static byte[] head(String method, String path, long length) {
        return (method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + (length >= 0 ? "Content-Length: " + length + "\r\n" : "") + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The same head, saying {@code Connection: close}: a client that sends one request a connection. */
    static byte[] closingHead(String method, String path, long length) {
        String head = new String(head(method, path, length), StandardCharsets.US_ASCII);
        return (head.substring(0, head.length() - 2) + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    static Response exchange(Socket socket, String method, String path, byte[] body) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(head(method, path, body == null ? 0 : body.length));
        if (body != null) {
            out.write(body);
        }
        out.flush();
        return read(socket.getInputStream());
    }

    /** A call whose body goes in 64 KiB chunks, without a declared length. */
    static Response exchangeChunked(Socket socket, String path, byte[] body) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        for (int from = 0; from < body.length; from += 65536) {
            int length = Math.min(65536, body.length - from);
            out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, from, length);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return read(socket.getInputStream());
    }

    /** One response; EOFException when the connection closed before a whole one came. */
    static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (String line; !(line = line(in)).isEmpty(); ) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        byte[] body;
        if (headers.containsKey("content-length")) {
            body = exactly(in, Integer.parseInt(headers.get("content-length")));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int size; (size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0; ) {
                all.write(exactly(in, size));
                line(in);
            }
            line(in);
            body = all.toByteArray();
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, body);
    }

    private static byte[] exactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("body cut after " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c == -1) {
                throw new EOFException("connection closed" + (line.length() > 0 ? " mid-line" : ""));
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
