package dev.metahook.controllers.database;

import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Finalization;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.SyncResult;
import dev.metahook.api.TerminalException;
import dev.metahook.controllers.ChildNames;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Serves a Database: validate the spec, build the credentials Secret, the Services and the
 * StatefulSet, report the phase; on deletion, drain, take a final backup, then let go.
 */
public final class DatabaseController implements CompositeController<Database> {
    private static final Duration TEARDOWN_RESYNC = Duration.ofSeconds(5);

    private final Clock clock;
    private final Credentials credentials;

    /** @param passwordKey the key passwords are derived under; every replica of the service must share it */
    public DatabaseController(Clock clock, byte[] passwordKey) {
        this.clock = clock;
        this.credentials = new Credentials(passwordKey);
    }

    @Override
    public SyncResult sync(Database database, ObservedChildren children) {
        String name = database.getMetadata().getName();
        ChildNames.requireDnsLabels("Database", name, List.of(name, DatabaseChildren.headlessName(name), DatabaseChildren.backupJobName(name)));
        Optional<StatefulSet> running = children.get(StatefulSet.class, name);
        DesiredDatabase desired = DesiredDatabase.of(database.getSpec(), running);
        return SyncResult.of(
                        credentials.secret(database, children.get(Secret.class, Credentials.secretName(name))),
                        DatabaseChildren.clientService(database),
                        DatabaseChildren.headlessService(database),
                        DatabaseChildren.statefulSet(database, desired))
                .withStatus(running(database, running))
                .deletingUnlisted();
    }

    @Override
    public SyncResult stalled(Database database, ObservedChildren children, TerminalException error) {
        return SyncResult.keepingObserved().withStatus(failed(database, error));
    }

    @Override
    public Finalization finalize(Database database, ObservedChildren children) {
        if (database.getMetadata().getDeletionTimestamp() == null) {
            return Finalization.done().withStatus(stillRunning(database, children));
        }
        Optional<StatefulSet> statefulSet = children.get(StatefulSet.class, database.getMetadata().getName());
        boolean deleteWithoutBackup = database.getSpec() != null && "Delete".equals(database.getSpec().deletionPolicy());
        if (deleteWithoutBackup || statefulSet.isEmpty()) {
            String why = deleteWithoutBackup ? "deleted without a backup (deletionPolicy: Delete)" : "nothing was ever stored";
            return Finalization.done().withStatus(deleting(database, Teardown.Step.DONE, why));
        }
        Teardown.Plan plan = Teardown.plan(database, children, statefulSet.get());
        Object status = deleting(database, plan.step(), plan.message());
        return switch (plan.step()) {
            case DONE -> Finalization.done().withStatus(status);
            case BACKUP_FAILED -> Finalization.waitFor(SyncResult.of(plan.children()).deletingUnlisted()).withStatus(status);
            default -> Finalization.waitFor(SyncResult.of(plan.children()).deletingUnlisted().resyncAfter(TEARDOWN_RESYNC))
                    .withStatus(status);
        };
    }

    /** A finalize call for a Database that is not going away (it stopped matching the controller's selector). */
    private Database.Status stillRunning(Database database, ObservedChildren children) {
        Optional<StatefulSet> running = children.get(StatefulSet.class, database.getMetadata().getName());
        try {
            DesiredDatabase.of(database.getSpec(), running);
            return running(database, running);
        } catch (TerminalException e) {
            return failed(database, e);
        }
    }

    private Database.Status running(Database database, Optional<StatefulSet> statefulSet) {
        Phase phase = Phase.of(statefulSet, previousPhase(database));
        return status(database, phase.phase, Conditions.from(database, clock)
                .set("Ready", phase.ready, phase.reason, phase.message)
                .set("Reconciling", phase.reconciling, phase.reason, phase.message)
                .set("Stalled", false, phase.reason, phase.message));
    }

    private Database.Status failed(Database database, TerminalException error) {
        return status(database, "Failed", Conditions.from(database, clock)
                .set("Ready", false, error.reason(), error.getMessage())
                .set("Reconciling", false, error.reason(), error.getMessage())
                .set("Stalled", true, error.reason(), error.getMessage()));
    }

    private Database.Status deleting(Database database, Teardown.Step step, String message) {
        String stalledReason = step.stalled || step == Teardown.Step.DONE ? step.reason : "Deleting";
        return status(database, "Deleting", Conditions.from(database, clock)
                .set("Ready", false, "Deleting", message)
                .set("Reconciling", step.reconciling, step.reason, message)
                .set("Stalled", step.stalled, stalledReason, message));
    }

    private static Database.Status status(Database database, String phase, Conditions conditions) {
        String name = database.getMetadata().getName();
        return new Database.Status(phase, name + "." + database.getMetadata().getNamespace() + ".svc:" + DatabaseChildren.PORT,
                Credentials.secretName(name), conditions.list());
    }

    private static String previousPhase(Database database) {
        return database.getStatus() == null ? null : database.getStatus().phase();
    }
}
