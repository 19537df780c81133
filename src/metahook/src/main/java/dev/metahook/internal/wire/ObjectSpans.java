package dev.metahook.internal.wire;

/**
 * Where, in a scanned object's bytes, its {@code metadata.namespace} and last-applied annotation are
 * (string values, quotes included) and its {@code metadata.managedFields} value; -1 where there is
 * none. With the annotation, whether it may hold what a typed model loses
 * ({@link JsonScanner#mayLoseInTypedForm}, read in the same pass). Found by the byte scanner in the metadata object when first asked for, for the few objects an
 * answer uses: nothing is tokenized or kept for the others. A repeated field counts the last time, as
 * in a tree.
 */
record ObjectSpans(int namespaceStart, int namespaceEnd, int appliedStart, int appliedEnd, boolean appliedMayLose, int managedStart,
                   int managedEnd) {

    /** The spans in the metadata object at {@code body[metadata]}, whose grammar was checked when the request was read. */
    static ObjectSpans find(byte[] body, int metadata) {
        Finder finder = new Finder(new JsonScanner(body, true));
        finder.scanner.fieldSpans(metadata, finder::metadataField);
        return new ObjectSpans(finder.namespaceStart, finder.namespaceEnd, finder.appliedStart, finder.appliedEnd, finder.appliedMayLose,
                finder.managedStart, finder.managedEnd);
    }

    private static final class Finder {
        private final JsonScanner scanner;
        private int namespaceStart = -1;
        private int namespaceEnd = -1;
        private int appliedStart = -1;
        private int appliedEnd = -1;
        private boolean appliedMayLose = true;
        private int managedStart = -1;
        private int managedEnd = -1;

        Finder(JsonScanner scanner) {
            this.scanner = scanner;
        }

        private int metadataField(int nameStart, int nameEnd, int valueStart) {
            if (scanner.textEquals(nameStart, nameEnd, "annotations")) {
                appliedStart = appliedEnd = -1;
                appliedMayLose = true;
                if (scanner.at(valueStart) == '{') {
                    return scanner.fieldSpans(valueStart, this::annotationField);
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
                appliedMayLose = !string || scanner.mayLoseInTypedForm();
            }
            return end;
        }
    }
}
