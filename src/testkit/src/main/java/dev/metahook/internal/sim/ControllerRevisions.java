package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ControllerRevisions Metacontroller keeps for a parent whose children roll: one per state of the
 * parent's revision fields ({@code spec.parentResource.revisionHistory.fieldPaths}, all of {@code spec}
 * when none), named {@code <resource>.<group>-<sha1 of the parent's uid and those fields as Go writes
 * JSON>}, owned by the parent, each claiming the children it is responsible for. A revision with no
 * children left is deleted; the latest is always kept.
 */
final class ControllerRevisions {
    static final String API_VERSION = "metacontroller.k8s.io/v1alpha1";
    static final String KIND = "ControllerRevision";

    private final ControllerSpec spec;
    private final Cluster store;
    private final List<String> fieldPaths;

    ControllerRevisions(ControllerSpec spec, Cluster store) {
        this.spec = spec;
        this.store = store;
        List<String> paths = new ArrayList<>();
        spec.manifest().path("spec").path("parentResource").path("revisionHistory").path("fieldPaths").forEach(p -> paths.add(p.asText()));
        this.fieldPaths = paths.isEmpty() ? List.of("spec") : List.copyOf(paths);
    }

    /** One revision: the object as stored (or to be stored) and the children it claims, by {@code Kind.group}. */
    static final class Revision {
        final ObjectNode object;
        final Map<String, Claim> claims = new LinkedHashMap<>();

        Revision(ObjectNode object) {
            this.object = object;
            for (JsonNode children : object.path("children")) {
                Claim claim = new Claim(children.path("apiGroup").asText(""), children.path("kind").asText());
                children.path("names").forEach(name -> claim.names.add(name.asText()));
                claims.put(claim.key(), claim);
            }
        }

        String name() {
            return object.path("metadata").path("name").asText();
        }

        boolean claims(String key, String name) {
            Claim claim = claims.get(key);
            return claim != null && claim.names.contains(name);
        }

        void add(String group, String kind, String name) {
            Claim claim = claims.computeIfAbsent(kind + "." + group, key -> new Claim(group, kind));
            if (!claim.names.contains(name)) {
                claim.names.add(name);
            }
        }

        void remove(String key, String name) {
            Claim claim = claims.get(key);
            if (claim != null) {
                claim.names.remove(name);
            }
        }

        int count() {
            return claims.values().stream().mapToInt(claim -> claim.names.size()).sum();
        }

        /** The object with its claims written back, empty groups left out. */
        ObjectNode written() {
            ObjectNode copy = object.deepCopy();
            copy.remove("children");
            ArrayNode children = Json.mapper().createArrayNode();
            for (Claim claim : claims.values()) {
                if (!claim.names.isEmpty()) {
                    ObjectNode entry = children.addObject().put("apiGroup", claim.group).put("kind", claim.kind);
                    claim.names.forEach(entry.putArray("names")::add);
                }
            }
            if (!children.isEmpty()) {
                copy.set("children", children);
            }
            return copy;
        }
    }

    /** The names of one child kind a revision claims. */
    static final class Claim {
        final String group;
        final String kind;
        final List<String> names = new ArrayList<>();

        Claim(String group, String kind) {
            this.group = group;
            this.kind = kind;
        }

        String key() {
            return kind + "." + group;
        }
    }

    /** The parent's revision fields, as Metacontroller copies them into a revision's {@code parentPatch}. */
    ObjectNode patch(JsonNode parent) {
        ObjectNode patch = Json.object();
        for (String path : fieldPaths) {
            JsonNode value = parent;
            for (String part : path.split("\\.")) {
                value = value.path(part);
            }
            if (!value.isMissingNode()) {
                ObjectNode at = patch;
                String[] parts = path.split("\\.");
                for (int i = 0; i < parts.length - 1; i++) {
                    at = at.withObjectProperty(parts[i]);
                }
                at.set(parts[parts.length - 1], value.deepCopy());
            }
        }
        return patch;
    }

    /** The parent as a revision saw it: the current parent with that revision's fields in place (same generation, same metadata). */
    ObjectNode materialize(ObjectNode parent, JsonNode patch) {
        ObjectNode copy = parent.deepCopy();
        for (String path : fieldPaths) {
            JsonNode value = patch;
            for (String part : path.split("\\.")) {
                value = value.path(part);
            }
            if (!value.isMissingNode()) {
                String[] parts = path.split("\\.");
                ObjectNode at = copy;
                for (int i = 0; i < parts.length - 1; i++) {
                    at = at.withObjectProperty(parts[i]);
                }
                at.set(parts[parts.length - 1], value.deepCopy());
            }
        }
        return copy;
    }

    /** The revisions the parent owns, by name. */
    List<Revision> observed(JsonNode parent) {
        String uid = parent.path("metadata").path("uid").asText();
        Map<String, Revision> byName = new TreeMap<>();
        for (ObjectNode object : store.ownedBy(uid)) {
            if (KIND.equals(object.path("kind").asText()) && API_VERSION.equals(object.path("apiVersion").asText())) {
                byName.put(object.path("metadata").path("name").asText(), new Revision(object));
            }
        }
        return new ArrayList<>(byName.values());
    }

    /** A new revision for the parent as it is now, claiming nothing yet. */
    Revision create(ObjectNode parent, ObjectNode patch) {
        JsonNode metadata = parent.path("metadata");
        ObjectNode revision = Json.object().put("apiVersion", API_VERSION).put("kind", KIND);
        ObjectNode meta = revision.putObject("metadata").put("name", name(parent, patch));
        if (metadata.hasNonNull("namespace")) {
            meta.put("namespace", metadata.path("namespace").asText());
        }
        ObjectNode labels = meta.putObject("labels");
        if (spec.generateSelector()) {
            labels.put("controller-uid", metadata.path("uid").asText());
        } else {
            parent.path("spec").path("template").path("metadata").path("labels").properties().iterator()
                    .forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
        }
        labels.put("metacontroller.k8s.io/apiGroup", group(parent.path("apiVersion").asText()));
        labels.put("metacontroller.k8s.io/resource", resource());
        meta.putArray("ownerReferences").addObject().put("apiVersion", parent.path("apiVersion").asText())
                .put("kind", parent.path("kind").asText()).put("name", metadata.path("name").asText())
                .put("uid", metadata.path("uid").asText()).put("controller", true).put("blockOwnerDeletion", true);
        revision.set("parentPatch", patch.deepCopy());
        return new Revision(revision);
    }

    /** Deletes the observed revisions no longer wanted, creates the new ones and updates those whose claims changed. */
    void manage(List<Revision> observed, List<Revision> desired) {
        Map<String, ObjectNode> stored = new LinkedHashMap<>();
        observed.forEach(revision -> stored.put(revision.name(), revision.object));
        List<String> wanted = desired.stream().map(Revision::name).toList();
        for (Iterator<Map.Entry<String, ObjectNode>> it = stored.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, ObjectNode> entry = it.next();
            if (!wanted.contains(entry.getKey())) {
                store.delete(Ids.of(entry.getValue()));
                it.remove();
            }
        }
        for (Revision revision : desired) {
            ObjectNode written = revision.written();
            ObjectNode before = stored.get(revision.name());
            if (before == null) {
                store.create(written);
            } else if (!before.equals(written)) {
                store.update(written);
            }
        }
    }

    /** {@code <resource>.<group or core>-<sha1(uid + parentPatch)>}, the patch written as Go's encoding/json writes it. */
    String name(JsonNode parent, JsonNode patch) {
        String group = group(parent.path("apiVersion").asText());
        String prefix = resource() + "." + (group.isEmpty() ? "core" : group);
        if (prefix.length() > 253 - 41) {
            prefix = prefix.substring(0, 253 - 41);
        }
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(parent.path("metadata").path("uid").asText().getBytes(StandardCharsets.UTF_8));
            sha1.update(goJson(patch).getBytes(StandardCharsets.UTF_8));
            return prefix + "-" + HexFormat.of().formatHex(sha1.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private String resource() {
        return spec.manifest().path("spec").path("parentResource").path("resource").asText();
    }

    static String group(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** JSON as Go's encoding/json writes a decoded object: keys sorted, compact, {@code <>&} and U+2028/9 escaped. */
    static String goJson(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>((a, b) -> compareUtf8(a, b));
            node.properties().iterator().forEachRemaining(field -> sorted.put(field.getKey(), field.getValue()));
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> field : sorted.entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                string(field.getKey(), out);
                out.append(':');
                write(field.getValue(), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(node.get(i), out);
            }
            out.append(']');
        } else if (node.isTextual()) {
            string(node.asText(), out);
        } else if (node.isNumber()) {
            out.append(node.isIntegralNumber() ? node.bigIntegerValue().toString()
                    : node.decimalValue().stripTrailingZeros().toPlainString());
        } else {
            out.append(node.isNull() ? "null" : node.asText());
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static int compareUtf8(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
