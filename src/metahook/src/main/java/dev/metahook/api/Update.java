package dev.metahook.api;

import java.util.List;

/**
 * How Metacontroller updates a child (or attachment) whose desired state changed: the
 * {@code updateStrategy} of its {@code childResources} entry. The rolling methods wait, between
 * children, until the updated one meets every {@link StatusCheck}.
 */
public record Update(String method, List<StatusCheck> statusChecks) {
    /** Never updated; the desired state applies when the child is recreated (Metacontroller's default). */
    public static final Update ON_DELETE = new Update("OnDelete", List.of());
    /** Deleted and recreated, all at once. */
    public static final Update RECREATE = new Update("Recreate", List.of());
    /** Updated in place, all at once. */
    public static final Update IN_PLACE = new Update("InPlace", List.of());

    public Update {
        statusChecks = List.copyOf(statusChecks);
    }

    /** Deleted and recreated one at a time, the next once the last one meets the checks. */
    public static Update rollingRecreate(StatusCheck... checks) {
        return new Update("RollingRecreate", List.of(checks));
    }

    /** Updated in place one at a time, the next once the last one meets the checks. */
    public static Update rollingInPlace(StatusCheck... checks) {
        return new Update("RollingInPlace", List.of(checks));
    }

    /** A condition the updated child's status must have before a rolling update moves on: its type and status. */
    public record StatusCheck(String type, ConditionStatus status) {
        public static StatusCheck condition(String type, ConditionStatus status) {
            return new StatusCheck(type, status);
        }
    }
}
