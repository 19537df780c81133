package dev.metahook.reliability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Request bodies: the WebApp sync of examples/requests, as is or grown to a given size. */
final class Bodies {
    /** Just under the default 16 MiB limit. */
    static final int LARGEST = 16 * 1024 * 1024 - 4096;

    private Bodies() {
    }

    static byte[] small() throws IOException {
        return CanonicalJson.bytes(Json.parse(Files.readAllBytes(Path.of("examples/requests/webapp-sync.json"))));
    }

    /** The sync with an annotation on the parent that brings the body to {@code size} bytes. */
    static byte[] withLargeParent(int size, String tag) throws IOException {
        return grown(size, "/parent/metadata", tag);
    }

    /** The sync with an annotation on the controller object: each tag makes a distinct controller of {@code size} bytes. */
    static byte[] withLargeController(int size, String tag) throws IOException {
        return grown(size, "/controller/metadata", tag);
    }

    private static byte[] grown(int size, String metadata, String tag) throws IOException {
        ObjectNode request = (ObjectNode) Json.parse(small());
        ObjectNode annotations = ((ObjectNode) request.at(metadata)).withObjectProperty("annotations");
        annotations.put("reliability.metahook.dev/filler", "");
        int filler = size - CanonicalJson.bytes(request).length - tag.length();
        annotations.put("reliability.metahook.dev/filler", tag + "x".repeat(Math.max(0, filler)));
        return CanonicalJson.bytes(request);
    }
}
