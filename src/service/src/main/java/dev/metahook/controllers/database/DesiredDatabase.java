package dev.metahook.controllers.database;

import dev.metahook.api.TerminalException;
import dev.metahook.controllers.Quantities;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A Database spec checked, with defaults applied, against what already runs: storage cannot change
 * once the StatefulSet exists, and a major version change needs a dump and restore.
 */
record DesiredDatabase(String version, String storage, String deletionPolicy) {
    static final String DEFAULT_VERSION = "16";
    private static final Pattern VERSION = Pattern.compile("^[0-9]+(\\.[0-9]+)?$");
    private static final Pattern QUANTITY =
            Pattern.compile("^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$");

    static DesiredDatabase of(Database.Spec spec, Optional<StatefulSet> running) {
        Database.Spec given = spec == null ? new Database.Spec(null, null, null, null) : spec;
        String engine = orDefault(given.engine(), "postgres");
        if (!engine.equals("postgres")) {
            throw invalid("spec.engine: must be postgres, got \"" + engine + "\"");
        }
        String version = orDefault(given.version(), DEFAULT_VERSION);
        if (!VERSION.matcher(version).matches()) {
            throw invalid("spec.version: must be a PostgreSQL version such as 16 or 16.4, got \"" + version + "\"");
        }
        String storage = orDefault(given.storage(), "1Gi");
        if (!QUANTITY.matcher(storage).matches()) {
            throw invalid("spec.storage: must be a Kubernetes quantity such as 1Gi, got \"" + storage + "\"");
        }
        if (Quantities.bytes(storage).isEmpty()) {
            throw invalid("spec.storage: " + storage + " is no size a volume can have: it must be more than 0 and at most 8Ei");
        }
        String deletionPolicy = orDefault(given.deletionPolicy(), "Backup");
        if (!deletionPolicy.equals("Backup") && !deletionPolicy.equals("Delete")) {
            throw invalid("spec.deletionPolicy: must be Backup or Delete, got \"" + deletionPolicy + "\"");
        }
        running.ifPresent(statefulSet -> checkAgainst(statefulSet, version, storage));
        return new DesiredDatabase(version, storage, deletionPolicy);
    }

    String image() {
        return "postgres:" + version;
    }

    private static void checkAgainst(StatefulSet running, String version, String storage) {
        runningStorage(running).ifPresent(was -> {
            if (!Quantities.sameSize(was, storage)) {
                throw invalid("spec.storage: cannot change once the database exists (was " + was + ", now " + storage
                        + "); set it back to " + was);
            }
        });
        runningVersion(running).ifPresent(was -> {
            if (!major(was).equals(major(version))) {
                throw invalid("spec.version: " + major(was) + " to " + major(version)
                        + " is a major upgrade, which needs a dump and restore; set it back to " + was);
            }
        });
    }

    static Optional<String> runningStorage(StatefulSet running) {
        return running.getSpec() == null ? Optional.empty() : running.getSpec().getVolumeClaimTemplates().stream()
                .filter(claim -> claim.getMetadata() != null && "data".equals(claim.getMetadata().getName()))
                .map(PersistentVolumeClaim::getSpec)
                .filter(spec -> spec != null && spec.getResources() != null && spec.getResources().getRequests() != null)
                .map(spec -> spec.getResources().getRequests().get("storage"))
                .filter(quantity -> quantity != null)
                .map(Quantity::toString)
                .findFirst();
    }

    /** The image of the running {@code postgres} container. */
    static Optional<String> runningImage(StatefulSet running) {
        if (running.getSpec() == null || running.getSpec().getTemplate() == null || running.getSpec().getTemplate().getSpec() == null) {
            return Optional.empty();
        }
        return running.getSpec().getTemplate().getSpec().getContainers().stream()
                .filter(container -> "postgres".equals(container.getName()))
                .map(container -> container.getImage())
                .filter(image -> image != null)
                .findFirst();
    }

    private static Optional<String> runningVersion(StatefulSet running) {
        return runningImage(running).filter(image -> image.contains(":")).map(image -> image.substring(image.lastIndexOf(':') + 1));
    }

    private static String major(String version) {
        int dot = version.indexOf('.');
        return dot < 0 ? version : version.substring(0, dot);
    }

    private static String orDefault(String value, String fallback) {
        return value == null ? fallback : value;
    }

    private static TerminalException invalid(String message) {
        return new TerminalException("InvalidSpec", message);
    }
}
