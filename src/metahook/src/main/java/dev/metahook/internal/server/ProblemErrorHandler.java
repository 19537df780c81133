package dev.metahook.internal.server;

import dev.metahook.internal.engine.Problem;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error answers (a request it could not parse: headers too large, URI too long, two
 * Content-Lengths, Content-Length with chunked, bad percent-encoding, no Host) as
 * {@code application/problem+json} like every other error of the service, instead of HTML pages.
 */
final class ProblemErrorHandler extends ErrorHandler {

    /** Every method gets a body: Jetty's own handler gives one only to GET, POST and HEAD (an HTTP/2 preface, {@code OPTIONS *}). */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    /** Also a request that failed while its head was parsed: Jetty builds a stand-in request for its error answer. */
    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        byte[] body = problem(code, message).toBytes();
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problem.MEDIA_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    static Problem problem(int status, String reason) {
        String why = reason == null || reason.isBlank() ? "" : ": " + reason;
        return switch (status) {
            case 400 -> Problem.of("bad-request", "Bad request", 400, "the request is not valid HTTP/1.1" + why);
            case 408 -> Problem.of("request-timeout", "Request timeout", 408, "the request did not arrive in time" + why);
            case 413 -> Problem.of("body-too-large", "Request body too large", 413, "the request is larger than the service accepts" + why);
            case 404 -> Problem.of("not-found", "Not found", 404, "no such resource" + why + "; hooks are POST /<controller>/<sync|finalize|customize>");
            case 414 -> Problem.of("uri-too-long", "URI too long", 414, "the request target is longer than the service accepts" + why);
            case 426 -> Problem.of("upgrade-required", "Upgrade required", 426,
                    "this port speaks HTTP/1.1 only (an HTTP/2 preface came)" + why);
            case 431 -> Problem.of("headers-too-large", "Request header fields too large", 431,
                    "the request headers are larger than the service accepts" + why);
            default -> Problem.of("http-error", "HTTP error", status, "the request could not be served" + why);
        };
    }
}
