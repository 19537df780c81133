package dev.metahook.controllers.database;

import dev.metahook.api.ObservedChildren;
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

    static Plan plan(Database database, ObservedChildren observed, StatefulSet statefulSet) {
        String name = database.getMetadata().getName();
        List<HasMetadata> children = keptWhileDeleting(name, observed);
        if (!drained(statefulSet)) {
            return new Plan(Step.DRAINING, children, "scaling StatefulSet " + name + " to 0 before the final backup");
        }
        String jobName = DatabaseChildren.backupJobName(name);
        Optional<Job> job = observed.get(Job.class, jobName);
        if (job.isEmpty()) {
            String image = DesiredDatabase.runningImage(statefulSet).orElse("postgres:" + DesiredDatabase.DEFAULT_VERSION);
            children.add(DatabaseChildren.backupJob(database, image, archiveTime(database)));
            return new Plan(Step.BACKING_UP, children, "writing the final backup to claim data-" + name + "-0");
        }
        if (succeeded(job.get())) {
            return new Plan(Step.DONE, children, "the final backup is on claim data-" + name + "-0");
        }
        if (failed(job.get())) {
            return new Plan(Step.BACKUP_FAILED, children, "the final backup Job " + jobName + " failed: find out why from its pod"
                    + " (kubectl logs job/" + jobName + "), fix it and delete the Job to try again,"
                    + " or set spec.deletionPolicy: Delete to delete without a backup");
        }
        return new Plan(Step.BACKING_UP, children, "writing the final backup to claim data-" + name + "-0");
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
