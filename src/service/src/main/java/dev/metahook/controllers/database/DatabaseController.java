package dev.metahook.controllers.database;

import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.ConditionStatus;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.ObservedChildren;
import dev.metahook.api.Result;
import dev.metahook.api.StalledHandler;
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
public final class DatabaseController implements CompositeController<Database, Database.Status>,
        Cleaner<Database, Database.Status>, StalledHandler<Database, Database.Status> {
    private static final Duration TEARDOWN_RESYNC = Duration.ofSeconds(5);

    private final Credentials credentials;

    /** @param passwordKey the key passwords are derived under; every replica of the service must share it */
    public DatabaseController(byte[] passwordKey) {
        this.credentials = new Credentials(passwordKey);
    }

    @Override
    public Result<Database.Status> sync(Database database, Context context) {
        ObservedChildren children = context.children();
        String name = database.getMetadata().getName();
        ChildNames.requireDnsLabels("Database", name, List.of(name, DatabaseChildren.headlessName(name), DatabaseChildren.backupJobName(name)));
        Optional<StatefulSet> running = children.get(StatefulSet.class, name);
        DesiredDatabase desired = DesiredDatabase.of(database.getSpec(), running);
        return Result.of(
                        credentials.secret(database, children.get(Secret.class, Credentials.secretName(name))),
                        DatabaseChildren.clientService(database),
                        DatabaseChildren.headlessService(database),
                        DatabaseChildren.statefulSet(database, desired))
                .deletingUnlisted()
                .withStatus(running(database, running, context.clock()));
    }

    /** An invalid spec: nothing is changed, the phase is Failed. */
    @Override
    public Result<Database.Status> stalled(Database database, Context context, TerminalException error) {
        return Result.keepingObserved().withStatus(failed(database, error, context.clock()));
    }

    @Override
    public Cleanup<Database.Status> cleanup(Database database, Context context) {
        Clock clock = context.clock();
        if (database.getMetadata().getDeletionTimestamp() == null) {
            return Cleanup.done().withStatus(stillRunning(database, context.children(), clock));
        }
        Optional<StatefulSet> statefulSet = context.children().get(StatefulSet.class, database.getMetadata().getName());
        boolean deleteWithoutBackup = database.getSpec() != null && "Delete".equals(database.getSpec().deletionPolicy());
        if (deleteWithoutBackup || statefulSet.isEmpty() && Teardown.nothingToBackUp(database)) {
            String why = deleteWithoutBackup ? "deleted without a backup (deletionPolicy: Delete)"
                    : "nothing was ever stored: no StatefulSet was ever observed";
            return Cleanup.done().withStatus(deleting(database, Teardown.Step.DONE, why, clock));
        }
        Teardown.Plan plan = Teardown.plan(database, context.children(), statefulSet);
        Database.Status status = deleting(database, plan.step(), plan.message(), clock);
        return switch (plan.step()) {
            case DONE -> Cleanup.done().withStatus(status);
            case BACKUP_FAILED -> Cleanup.inProgress(Result.of(plan.children()).deletingUnlisted().withStatus(status));
            default -> Cleanup.inProgress(Result.of(plan.children()).deletingUnlisted().resyncAfter(TEARDOWN_RESYNC)
                    .withStatus(status));
        };
    }

    /** A finalize call for a Database that is not going away (it stopped matching the controller's selector). */
    private static Database.Status stillRunning(Database database, ObservedChildren children, Clock clock) {
        Optional<StatefulSet> running = children.get(StatefulSet.class, database.getMetadata().getName());
        try {
            DesiredDatabase.of(database.getSpec(), running);
            return running(database, running, clock);
        } catch (TerminalException e) {
            return failed(database, e, clock);
        }
    }

    private static Database.Status running(Database database, Optional<StatefulSet> statefulSet, Clock clock) {
        Phase phase = Phase.of(statefulSet, previousPhase(database));
        return status(database, phase.phase, Conditions.from(database, clock).summary(ConditionStatus.of(phase.ready),
                ConditionStatus.of(phase.reconciling), ConditionStatus.FALSE, phase.reason, phase.message));
    }

    private static Database.Status failed(Database database, TerminalException error, Clock clock) {
        return status(database, "Failed", Conditions.from(database, clock).stalled(error.reason(), error.getMessage()));
    }

    private static Database.Status deleting(Database database, Teardown.Step step, String message, Clock clock) {
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
