package dev.metahook.reliability;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * WebApp syncs whose bodies are made of many small JSON values, the shapes that cost the most heap per
 * byte (issue 23): each is the sync of examples/requests grown in one place, as a user who may create
 * a WebApp (its {@code spec.resources} is open in the CRD) or a cluster with many children can make it.
 */
final class ShapedBodies {
    private ShapedBodies() {
    }

    /** {@code spec.resources.claims} holds {@code count} empty objects (450,000: 1.29 MiB, under etcd's 1.5 MiB). */
    static byte[] emptyObjects(int count) throws IOException {
        ObjectNode request = request();
        ArrayNode claims = ((ObjectNode) request.at("/parent/spec")).putObject("resources").putArray("claims");
        for (int i = 0; i < count; i++) {
            claims.addObject();
        }
        return CanonicalJson.bytes(request);
    }

    /** {@code spec.env} holds {@code count} variables with distinct names (48,000: 1.36 MiB). */
    static byte[] env(int count) throws IOException {
        ObjectNode request = request();
        ArrayNode env = ((ObjectNode) request.at("/parent/spec")).putArray("env");
        for (int i = 0; i < count; i++) {
            env.addObject().put("name", "E" + i).put("value", "v");
        }
        return CanonicalJson.bytes(request);
    }

    /**
     * A parent whose spec is invalid (no image: the controller stalls and keeps every child) with
     * {@code count} tiny ConfigMaps as observed children, declared by the controller object (81,509: 15 MiB).
     */
    static byte[] invalidSpecWithConfigMaps(int count) throws IOException {
        return withConfigMaps(count, true);
    }

    /** {@code count} tiny observed ConfigMaps under a parent whose spec is valid: the controller reads none of them. */
    static byte[] unreadConfigMaps(int count) throws IOException {
        return withConfigMaps(count, false);
    }

    private static byte[] withConfigMaps(int count, boolean invalidSpec) throws IOException {
        ObjectNode request = request();
        if (invalidSpec) {
            ((ObjectNode) request.at("/parent/spec")).remove("image");
        }
        ((ArrayNode) request.at("/controller/spec/childResources")).addObject().put("apiVersion", "v1").put("resource", "configmaps");
        ObjectNode group = ((ObjectNode) request.get("children")).putObject("ConfigMap.v1");
        for (int i = 0; i < count; i++) {
            String name = String.format("hello-config-%06d", i);
            ObjectNode map = group.putObject(name);
            map.put("apiVersion", "v1").put("kind", "ConfigMap");
            map.putObject("metadata").put("name", name).put("namespace", "default")
                    .put("uid", String.format("5deaee1c-1332-399e-9b5b-%012d", i));
            map.putObject("data").put("k", "v");
        }
        return CanonicalJson.bytes(request);
    }

    /** {@code count} objects nested {@code depth} deep, in {@code parent.spec} or in an observed child's spec. */
    static byte[] deep(int count, int depth, boolean inChild) throws IOException {
        ObjectNode request = request();
        String marker = "\"deep-marker\"";
        ObjectNode holder = inChild ? (ObjectNode) request.at("/children/Deployment.apps~1v1/hello/spec")
                : (ObjectNode) request.at("/parent/spec");
        holder.put("x", "deep-marker");
        String text = new String(CanonicalJson.bytes(request), StandardCharsets.UTF_8);
        StringBuilder nested = new StringBuilder("[");
        String one = "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
        for (int i = 0; i < count; i++) {
            nested.append(i == 0 ? "" : ",").append(one);
        }
        nested.append(']');
        return text.replace(marker, nested).getBytes(StandardCharsets.UTF_8);
    }

    /** A body of {@code size} bytes made of one string (an annotation on the parent), written without a tree. */
    static byte[] oneString(long size) throws IOException {
        ObjectNode request = request();
        ((ObjectNode) request.at("/parent/metadata")).putObject("annotations").put("reliability.metahook.dev/filler", "filler-marker");
        String text = new String(CanonicalJson.bytes(request), StandardCharsets.UTF_8);
        int at = text.indexOf("filler-marker");
        byte[] head = text.substring(0, at).getBytes(StandardCharsets.UTF_8);
        byte[] tail = text.substring(at + "filler-marker".length()).getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[Math.toIntExact(size)];
        System.arraycopy(head, 0, body, 0, head.length);
        Arrays.fill(body, head.length, body.length - tail.length, (byte) 'x');
        System.arraycopy(tail, 0, body, body.length - tail.length, tail.length);
        return body;
    }

    /** {@code parent.spec.numbers} (a field the WebApp type does not have) holds {@code count} integers: a long array of scalars. */
    static byte[] longArray(int count) throws IOException {
        ObjectNode request = request();
        ArrayNode numbers = ((ObjectNode) request.at("/parent/spec")).putArray("numbers");
        for (int i = 0; i < count; i++) {
            numbers.add(i);
        }
        return CanonicalJson.bytes(request);
    }

    /**
     * Database's finalize request of examples/requests, its StatefulSet's last-applied annotation grown to about
     * {@code bytes} with {@code spec.template.metadata.labels} of small entries: a body under 1 MiB whose work (the
     * annotation parsed, fitted and typed) costs several MiB.
     */
    static byte[] databaseFinalizeWithLargeLastApplied(int bytes) throws IOException {
        ObjectNode request = (ObjectNode) Json.parse(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("examples/requests/database-finalize-drain.json")));
        ObjectNode set = (ObjectNode) request.at("/children/StatefulSet.apps~1v1/orders");
        ObjectNode annotations = (ObjectNode) set.at("/metadata/annotations");
        String key = "metacontroller.k8s.io/last-applied-configuration";
        ObjectNode applied = (ObjectNode) Json.parse(annotations.get(key).asText().getBytes(StandardCharsets.UTF_8));
        ObjectNode labels = applied.with("spec").with("template").with("metadata").with("labels");
        for (int i = 0; labels.toString().length() < bytes; i++) {
            labels.put("l" + i, "v");
        }
        annotations.put(key, CanonicalJson.string(applied));
        return CanonicalJson.bytes(request);
    }

    private static ObjectNode request() throws IOException {
        return (ObjectNode) Json.parse(Bodies.small());
    }
}
