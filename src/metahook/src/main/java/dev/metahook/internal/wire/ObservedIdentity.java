package dev.metahook.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Checks, while the scanner passes over an observed object, that it is what its place in the request
 * says: {@code apiVersion} and {@code kind} those of its group, {@code metadata.name} (and
 * {@code metadata.namespace}, under a {@code namespace/name} key) those of its key. Every object is
 * checked, read by the controller or not; nothing is built for one that fits, and one that does not
 * is parsed to say exactly what is wrong. One checker serves a whole group, object after object.
 */
final class ObservedIdentity implements JsonScanner.FieldSpanVisitor {
    private final JsonScanner scanner;
    private final GroupKey group;
    private final JsonScanner.FieldSpanVisitor metadata = this::metadataField;
    private String name;
    private String namespace;
    private boolean apiVersionFits;
    private boolean kindFits;
    private boolean nameFits;
    private boolean namespaceFits;
    private int metadataStart;

    ObservedIdentity(JsonScanner scanner, GroupKey group) {
        this.scanner = scanner;
        this.group = group;
    }

    /** Scans the object that starts at {@code start} under {@code objectKey}; returns the index just after it. */
    int scan(String objectKey, int start) {
        int slash = objectKey.indexOf('/');
        name = slash < 0 ? objectKey : objectKey.substring(slash + 1);
        namespace = slash < 0 ? null : objectKey.substring(0, slash);
        apiVersionFits = false;
        kindFits = false;
        nameFits = false;
        namespaceFits = namespace == null;
        metadataStart = -1;
        return scanner.fieldSpans(start, this);
    }

    /** Where the metadata object of the object last scanned starts (the last one, if repeated); -1 without one. */
    int metadataStart() {
        return metadataStart;
    }

    /** Whether the object last scanned is what its group and key say. */
    boolean fits() {
        return apiVersionFits && kindFits && nameFits && namespaceFits;
    }

    /** Says what is wrong with an object under {@code key} that does not fit: its shape, its group, or its key. */
    static MalformedRequestException misfit(ObservedObject object, String key, String pointer) {
        return misfit(object.tree(), key, pointer);
    }

    /** The same for an object already parsed and checked for shape and group: a name or namespace its key does not give. */
    private static MalformedRequestException misfit(ObjectNode object, String key, String pointer) {
        int slash = key.indexOf('/');
        JsonNode metadata = object.path("metadata");
        String name = metadata.path("name").asText();
        String keyName = slash < 0 ? key : key.substring(slash + 1);
        if (!name.equals(keyName) || slash < 0) {
            return new MalformedRequestException(pointer + "/metadata/name", pointer + "/metadata/name: is " + name
                    + ", but its key " + key + " says " + keyName);
        }
        String namespace = metadata.path("namespace").asText("");
        return new MalformedRequestException(pointer + "/metadata/namespace", pointer + "/metadata/namespace: is "
                + (namespace.isEmpty() ? "missing" : namespace) + ", but its key " + key + " says " + key.substring(0, slash));
    }

    @Override
    public int field(int nameStart, int nameEnd, int valueStart) {
        if (scanner.textEquals(nameStart, nameEnd, "apiVersion")) {
            apiVersionFits = isString(valueStart, group.apiVersion());
        } else if (scanner.textEquals(nameStart, nameEnd, "kind")) {
            kindFits = isString(valueStart, group.kind());
        } else if (scanner.textEquals(nameStart, nameEnd, "metadata")) {
            nameFits = false;
            namespaceFits = namespace == null;
            if (scanner.at(valueStart) == '{') {
                metadataStart = valueStart;
                return scanner.fieldSpans(valueStart, metadata);
            }
        }
        return scanner.valueEnd(valueStart);
    }

    private int metadataField(int nameStart, int nameEnd, int valueStart) {
        if (scanner.textEquals(nameStart, nameEnd, "name")) {
            nameFits = isString(valueStart, name);
        } else if (scanner.textEquals(nameStart, nameEnd, "namespace")) {
            byte first = scanner.at(valueStart);
            namespaceFits = namespace == null ? first == '"' || first == 'n' : isString(valueStart, namespace);
        }
        return scanner.valueEnd(valueStart);
    }

    /** Whether the value at {@code start} is the string {@code expected}; it is scanned either way, by the caller. */
    private boolean isString(int start, String expected) {
        return scanner.at(start) == '"' && scanner.textEquals(start, scanner.stringEnd(start), expected);
    }
}
