package dev.metahook.controllers.database;

import dev.metahook.api.ObservedChildren;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ordered teardown of a Database being deleted, decided from observed state only so that repeated
 * or concurrent calls agree: drain, back up, done. Children are their last-applied forms, never
 * rebuilt from a spec that may have changed since.
 */
final class Teardown {
    private static final DateTimeFormatter ARCHIVE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    enum Step {
        DRAINING("Draining", true, false),
        BACKING_UP("BackingUp", true, false),
        BACKUP_FAILED("BackupFailed", false, true),
        DONE("Deleted", false, false);

        final String reason;
        final boolean reconciling;
        final boolean stalled;

        Step(String reason, boolean reconciling, boolean stalled) {
            this.reason = reason;
            this.reconciling = reconciling;
            this.stalled = stalled;
        }
    }

    /** Where teardown stands, and the children to answer with. */
    record Plan(Step step, List<HasMetadata> children, String message) {
    }

    private Teardown() {
    }

    /**
     * The next step for a Database whose StatefulSet is {@code statefulSet}. Without one the data may
     * still be on the retained claim (the StatefulSet was deleted, or is not observed yet): nothing
     * runs, so there is nothing to drain, and the backup is written all the same.
     */
    static Plan plan(Database database, ObservedChildren observed, Optional<StatefulSet> statefulSet) {
        String name = database.getMetadata().getName();
        List<HasMetadata> children = keptWhileDeleting(name, observed);
        if (statefulSet.isPresent() && !drained(statefulSet.get())) {
            return new Plan(Step.DRAINING, children, "scaling StatefulSet " + name + " to 0 before the final backup");
        }
        String jobName = DatabaseChildren.backupJobName(name);
        Optional<Job> job = observed.get(Job.class, jobName);
        if (job.isEmpty()) {
            children.add(DatabaseChildren.backupJob(database, backupImage(database, statefulSet), archiveTime(database)));
            return new Plan(Step.BACKING_UP, children, backingUp(name, statefulSet));
        }
        if (succeeded(job.get())) {
            return new Plan(Step.DONE, children, "the final backup is on claim data-" + name + "-0");
        }
        if (failed(job.get())) {
            return new Plan(Step.BACKUP_FAILED, children, "the final backup Job " + jobName + " failed: find out why from its pod"
                    + " (kubectl logs job/" + jobName + "), fix it and delete the Job to try again,"
                    + " or set spec.deletionPolicy: Delete to delete without a backup");
        }
        return new Plan(Step.BACKING_UP, children, backingUp(name, statefulSet));
    }

    /**
     * Whether the status proves that no data was ever stored: no sync ever observed a StatefulSet
     * (the phase is still none or {@code Pending}, which it never returns to once one was observed:
     * see {@link Phase}). Or the teardown already finished and said so, and this is a repeated call.
     */
    static boolean nothingToBackUp(Database database) {
        Database.Status status = database.getStatus();
        if (status == null || status.phase() == null || status.phase().equals(Phase.PENDING.phase)) {
            return true;
        }
        return status.phase().equals("Deleting") && status.conditions() != null && status.conditions().stream()
                .anyMatch(condition -> "Reconciling".equals(condition.getType()) && Step.DONE.reason.equals(condition.getReason()));
    }

    private static String backingUp(String name, Optional<StatefulSet> statefulSet) {
        String writing = "writing the final backup to claim data-" + name + "-0";
        return statefulSet.isPresent() ? writing : "no StatefulSet " + name + " is observed, yet the status says one was: " + writing
                + " (if that claim is gone too, set spec.deletionPolicy: Delete to let the Database go)";
    }

    /** The image that ran the data, or else the spec's version, or else the default. */
    private static String backupImage(Database database, Optional<StatefulSet> statefulSet) {
        Optional<String> running = statefulSet.flatMap(DesiredDatabase::runningImage);
        if (running.isPresent()) {
            return running.get();
        }
        try {
            return DesiredDatabase.of(database.getSpec(), Optional.empty()).image();
        } catch (TerminalException invalid) {
            return "postgres:" + DesiredDatabase.DEFAULT_VERSION;
        }
    }

    /** Every observed child as last applied, but the client Service (clients stop connecting) and with no replicas. */
    private static List<HasMetadata> keptWhileDeleting(String name, ObservedChildren observed) {
        List<HasMetadata> kept = new ArrayList<>();
        observed.all(Secret.class).forEach(secret -> kept.add(lastApplied(observed, Secret.class, secret)));
        observed.all(Service.class).stream().filter(service -> !service.getMetadata().getName().equals(name))
                .forEach(service -> kept.add(lastApplied(observed, Service.class, service)));
        observed.all(StatefulSet.class).forEach(statefulSet -> {
            StatefulSet stopped = lastApplied(observed, StatefulSet.class, statefulSet);
            if (stopped.getSpec() != null) {
                stopped.getSpec().setReplicas(0);
            }
            kept.add(stopped);
        });
        observed.all(Job.class).forEach(job -> kept.add(lastApplied(observed, Job.class, job)));
        return kept;
    }

    private static <T extends HasMetadata> T lastApplied(ObservedChildren observed, Class<T> type, T child) {
        return observed.lastApplied(type, child.getMetadata().getName()).orElse(child);
    }

    private static boolean drained(StatefulSet statefulSet) {
        Integer specReplicas = statefulSet.getSpec() == null ? null : statefulSet.getSpec().getReplicas();
        Integer replicas = statefulSet.getStatus() == null ? null : statefulSet.getStatus().getReplicas();
        return specReplicas != null && specReplicas == 0 && (replicas == null || replicas == 0);
    }

    private static boolean succeeded(Job job) {
        JobStatus status = job.getStatus();
        return status != null && status.getSucceeded() != null && status.getSucceeded() >= 1;
    }

    private static boolean failed(Job job) {
        JobStatus status = job.getStatus();
        return status != null && status.getConditions().stream()
                .anyMatch(condition -> "Failed".equals(condition.getType()) && "True".equals(condition.getStatus()));
    }

    private static String archiveTime(Database database) {
        return OffsetDateTime.parse(database.getMetadata().getDeletionTimestamp()).atZoneSameInstant(ZoneOffset.UTC)
                .format(ARCHIVE_TIME);
    }
}
