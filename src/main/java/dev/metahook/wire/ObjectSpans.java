package dev.metahook.wire;

/**
 * Where, in a scanned object's bytes, its {@code metadata.namespace} and last-applied annotation are
 * (string values, quotes included) and its {@code metadata.managedFields} value; -1 where there is
 * none. Found by the byte scanner while it checks the object's identity ({@link ObservedIdentity}),
 * in the one pass over its metadata: nothing is tokenized or kept but these positions. A repeated
 * field counts the last time, as in a tree.
 */
record ObjectSpans(int namespaceStart, int namespaceEnd, int appliedStart, int appliedEnd, int managedStart, int managedEnd) {

    /** Records the spans of the metadata object being scanned; one finder serves object after object. */
    static final class Finder {
        private final JsonScanner scanner;
        private final JsonScanner.FieldSpanVisitor annotation = this::annotationField;
        int namespaceStart;
        int namespaceEnd;
        int appliedStart;
        int appliedEnd;
        int managedStart;
        int managedEnd;

        Finder(JsonScanner scanner) {
            this.scanner = scanner;
            reset();
        }

        /** Forgets what was found: a new object, or its metadata again. */
        void reset() {
            namespaceStart = namespaceEnd = appliedStart = appliedEnd = managedStart = managedEnd = -1;
        }

        /**
         * Visits one field of the metadata object; returns the index just after its value. Malformed
         * annotations are reported as a value scan reports them, as when the spans were found later.
         */
        int metadataField(int nameStart, int nameEnd, int valueStart) {
            if (scanner.textEquals(nameStart, nameEnd, "annotations")) {
                appliedStart = appliedEnd = -1;
                if (scanner.at(valueStart) == '{') {
                    try {
                        return scanner.fieldSpans(valueStart, annotation);
                    } catch (MalformedRequestException malformed) {
                        scanner.valueEnd(valueStart);
                        throw malformed;
                    }
                }
                return scanner.valueEnd(valueStart);
            }
            int end = scanner.valueEnd(valueStart);
            if (scanner.textEquals(nameStart, nameEnd, "namespace")) {
                boolean string = scanner.at(valueStart) == '"';
                namespaceStart = string ? valueStart : -1;
                namespaceEnd = string ? end : -1;
            } else if (scanner.textEquals(nameStart, nameEnd, "managedFields")) {
                managedStart = valueStart;
                managedEnd = end;
            }
            return end;
        }

        private int annotationField(int nameStart, int nameEnd, int valueStart) {
            int end = scanner.valueEnd(valueStart);
            if (scanner.textEquals(nameStart, nameEnd, LastAppliedConfiguration.ANNOTATION)) {
                boolean string = scanner.at(valueStart) == '"';
                appliedStart = string ? valueStart : -1;
                appliedEnd = string ? end : -1;
            }
            return end;
        }
    }
}
