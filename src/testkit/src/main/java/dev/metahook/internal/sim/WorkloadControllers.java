package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.Json;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays the cluster's other controllers and the kubelet, one step at a time, through the states the
 * API server really shows: a workload's {@code observedGeneration} first, then its pods (a new
 * Deployment's or a ReplicaSet's all at once, as there are no old pods to keep available; a rollout one
 * pod of surge per step; a StatefulSet one ordinal at a time, the highest going first when it scales
 * down), each ready a step after it was created, pods created together ready together, old pods going
 * as new ones become ready; a Pod is Pending when
 * created and Running and Ready a step later; a Job is active, then complete. Status only, in the
 * fields and forms the real controllers write them ({@code replicas: 0} of a StatefulSet or
 * ReplicaSet included, a Deployment's zero counts left out). In a broken cluster pods never become
 * ready and every Job's pod fails, retried after 10 s, 20 s, 40 s... until its {@code backoffLimit}.
 * A step is {@link #STEP} of simulated time.
 */
public final class WorkloadControllers {
    /** How long one step takes: a pod starting, a count moving. */
    public static final Duration STEP = Duration.ofSeconds(1);
    private static final Duration JOB_BACKOFF = Duration.ofSeconds(10);
    private static final Duration JOB_BACKOFF_CAP = Duration.ofMinutes(6);
    private static final Pattern REPLICA_SET = Pattern.compile("ReplicaSet \"([^\"]+)\"");

    private final Clock clock;
    private final boolean broken;
    private final Map<ChildId, Instant> retries = new HashMap<>();

    /** @param broken pods never become ready and Jobs fail (a bad image, a cluster out of capacity) */
    public WorkloadControllers(Clock clock, boolean broken) {
        this.clock = clock;
        this.broken = broken;
    }

    public boolean broken() {
        return broken;
    }

    /** Brings every workload in the store to its end status, step by step. */
    public static void settle(Cluster store) {
        settle(store, Clock.systemUTC());
    }

    /** The same, with the times the controllers write taken from {@code clock}. */
    public static void settle(Cluster store, Clock clock) {
        WorkloadControllers controllers = new WorkloadControllers(clock, false);
        for (int i = 0; i < 1000 && controllers.step(store); i++) {
            // each step moves at least one status
        }
    }

    /** One step of every workload that is due; true when a status changed. */
    public boolean step(Cluster store) {
        boolean changed = false;
        Instant now = clock.instant();
        for (ObjectNode object : store.all()) {
            ChildId ref = Ids.of(object);
            Instant retry = retries.get(ref);
            if (retry != null && retry.isAfter(now) || object.path("metadata").hasNonNull("deletionTimestamp")) {
                continue;
            }
            retries.remove(ref);
            JsonNode next = next(object);
            if (next != null && !next.equals(object.get("status"))) {
                store.setStatus(ref, next);
                changed = true;
            }
        }
        return changed;
    }

    /**
     * The controllers' reactions, played at once: every step that makes no pod ready or unready and finishes no Job (a
     * workload's {@code observedGeneration}, the pods it creates, a Job's pod started), as the Deployment, StatefulSet,
     * ReplicaSet and Job controllers make them within milliseconds of the write they answer, while a pod's start is the
     * kubelet's and takes a {@link #STEP}. True when a status changed.
     */
    public boolean react(Cluster store) {
        boolean changed = false;
        for (int round = 0; round < 100; round++) {
            boolean moved = false;
            Instant now = clock.instant();
            for (ObjectNode object : store.all()) {
                Instant retry = retries.get(Ids.of(object));
                if (retry != null && retry.isAfter(now) || object.path("metadata").hasNonNull("deletionTimestamp") || !reacts(object)) {
                    continue;
                }
                JsonNode next = next(object);
                if (next != null && !next.equals(object.get("status")) && sameReadiness(object.path("kind").asText(), object.path("status"), next)) {
                    store.setStatus(Ids.of(object), next);
                    moved = true;
                }
            }
            if (!moved) {
                return changed;
            }
            changed = true;
        }
        return changed;
    }

    /** Whether the object's next step may be a controller's: never a Pod's (the kubelet's), a Job's only to start its pod. */
    private static boolean reacts(ObjectNode object) {
        return switch (object.path("kind").asText()) {
            case "Deployment", "StatefulSet", "ReplicaSet" -> true;
            case "Job" -> object.path("status").path("active").asInt(0) == 0 && !finished(object.path("status"));
            default -> false;
        };
    }

    private static boolean sameReadiness(String kind, JsonNode status, JsonNode next) {
        return readyPods(kind, status) == readyPods(kind, next);
    }

    /** The pods the kubelet made ready: of a Deployment, those of its latest template (the old ones are the controller's to remove). */
    private static int readyPods(String kind, JsonNode status) {
        int ready = status.path("readyReplicas").asInt(0);
        return kind.equals("Deployment") ? ready - status.path("replicas").asInt(0) + status.path("updatedReplicas").asInt(0) : ready;
    }

    /** When the next step is due: a step from now while any status would move, a Job's retry, or never. */
    public Optional<Instant> nextDue(Cluster store) {
        Instant now = clock.instant();
        Instant earliest = null;
        for (ObjectNode object : store.all()) {
            if (object.path("metadata").hasNonNull("deletionTimestamp")) {
                continue;
            }
            Instant retry = retries.get(Ids.of(object));
            Instant due = retry != null && retry.isAfter(now) ? retry : moves(object) ? now.plus(STEP) : null;
            if (due != null && (earliest == null || due.isBefore(earliest))) {
                earliest = due;
            }
        }
        return Optional.ofNullable(earliest);
    }

    private boolean moves(ObjectNode object) {
        String kind = object.path("kind").asText();
        if (kind.equals("Job")) {
            return jobMoves(object);
        }
        JsonNode next = probe(object);
        return next != null && !next.equals(object.get("status"));
    }

    /** The next status without remembering anything (a Job's retry time is remembered only when taken). */
    private JsonNode probe(ObjectNode object) {
        return stored(switch (object.path("kind").asText()) {
            case "Deployment" -> deployment(object);
            case "StatefulSet" -> statefulSet(object);
            case "ReplicaSet" -> replicaSet(object);
            case "Pod" -> pod(object);
            default -> null;
        });
    }

    JsonNode next(ObjectNode object) {
        return object.path("kind").asText().equals("Job") ? stored(job(object)) : probe(object);
    }

    /** A status in the form the store keeps it (numbers as the API server decodes them), to compare with what is stored. */
    private static JsonNode stored(JsonNode status) {
        return status == null ? null : Json.parse(CanonicalJson.bytes(status));
    }

    private ObjectNode deployment(ObjectNode object) {
        long generation = generation(object);
        int wanted = object.path("spec").path("replicas").asInt(1);
        JsonNode status = object.path("status");
        String replicaSet = object.path("metadata").path("name").asText() + "-" + templateHash(object.path("spec").path("template"));
        String running = runningReplicaSet(status);
        int total = status.path("replicas").asInt(0);
        int updated = status.path("updatedReplicas").asInt(0);
        int ready = status.path("readyReplicas").asInt(0);
        int old = total - updated;
        int newReady = Math.max(0, ready - old);
        if (status.path("observedGeneration").asLong(0) != generation || !replicaSet.equals(running)) {
            if (!replicaSet.equals(running)) {
                old = total;
                updated = 0;
                newReady = 0;
            }
        } else {
            int created = updated;
            if (old == 0) {
                updated = wanted;
            } else if (updated < wanted) {
                updated++;
            } else if (updated > wanted) {
                updated--;
            }
            newReady = broken ? 0 : Math.min(created, updated);
            old = Math.min(old, Math.max(0, wanted - newReady));
        }
        ObjectNode next = Json.object().put("observedGeneration", generation);
        int available = old + newReady;
        positive(next, "replicas", old + updated);
        positive(next, "updatedReplicas", updated);
        positive(next, "readyReplicas", available);
        positive(next, "availableReplicas", available);
        positive(next, "unavailableReplicas", old + updated - available);
        boolean done = updated == wanted && old == 0 && newReady == wanted;
        ArrayNode conditions = next.putArray("conditions");
        boolean minimum = available >= wanted - wanted / 4;
        conditions.add(condition(status, "Available", minimum, minimum ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable",
                minimum ? "Deployment has minimum availability." : "Deployment does not have minimum availability."));
        conditions.add(condition(status, "Progressing", true, done ? "NewReplicaSetAvailable" : "ReplicaSetUpdated",
                "ReplicaSet \"" + replicaSet + "\" " + (done ? "has successfully progressed." : "is progressing.")));
        return next;
    }

    private ObjectNode statefulSet(ObjectNode object) {
        long generation = generation(object);
        int wanted = object.path("spec").path("replicas").asInt(1);
        JsonNode status = object.path("status");
        String revision = object.path("metadata").path("name").asText() + "-" + templateHash(object.path("spec").path("template"));
        int replicas = status.path("replicas").asInt(0);
        int ready = status.path("readyReplicas").asInt(0);
        int current = status.path("currentReplicas").asInt(0);
        int updated = status.path("updatedReplicas").asInt(0);
        String currentRevision = status.path("currentRevision").asText(revision);
        String updateRevision = status.path("updateRevision").asText("");
        if (status.path("observedGeneration").asLong(0) != generation || !revision.equals(updateRevision)) {
            if (!revision.equals(updateRevision)) {
                updateRevision = revision;
                updated = currentRevision.equals(revision) ? replicas : 0;
            }
        } else if (replicas > wanted) {
            replicas--;
            ready = Math.min(ready, replicas);
            updated = Math.min(updated, replicas);
            current = Math.min(current, replicas);
        } else if (ready < replicas) {
            ready = broken ? ready : ready + 1;
        } else if (replicas < wanted) {
            replicas++;
            updated++;
            current += currentRevision.equals(updateRevision) ? 1 : 0;
        } else if (updated < replicas) {
            ready--;
            updated++;
            current = Math.max(0, current - 1);
        } else if (!currentRevision.equals(updateRevision)) {
            currentRevision = updateRevision;
            current = updated;
        }
        // availableReplicas is always written (no omitempty since Kubernetes 1.22): the pods ready for minReadySeconds, here all ready ones
        ObjectNode next = Json.object().put("observedGeneration", generation).put("replicas", replicas).put("availableReplicas", ready);
        positive(next, "readyReplicas", ready);
        positive(next, "currentReplicas", current);
        positive(next, "updatedReplicas", updated);
        next.put("currentRevision", currentRevision).put("updateRevision", updateRevision).put("collisionCount", 0);
        return next;
    }

    private ObjectNode replicaSet(ObjectNode object) {
        long generation = generation(object);
        int wanted = object.path("spec").path("replicas").asInt(1);
        JsonNode status = object.path("status");
        int replicas = status.path("replicas").asInt(0);
        int ready = status.path("readyReplicas").asInt(0);
        if (status.path("observedGeneration").asLong(0) == generation) {
            int created = replicas;
            replicas = wanted;
            ready = broken ? 0 : Math.min(created, replicas);
        }
        ObjectNode next = Json.object().put("replicas", replicas);
        positive(next, "fullyLabeledReplicas", replicas);
        positive(next, "readyReplicas", ready);
        positive(next, "availableReplicas", ready);
        return next.put("observedGeneration", generation);
    }

    /** The kubelet: a Pending pod runs; it is Ready unless a readiness gate's condition is not True, or the cluster is broken. */
    private ObjectNode pod(ObjectNode object) {
        JsonNode status = object.path("status");
        if (!"Pending".equals(status.path("phase").asText("Pending")) || broken) {
            return null;
        }
        boolean gated = false;
        for (JsonNode gate : object.path("spec").path("readinessGates")) {
            gated |= !"True".equals(conditionStatus(status, gate.path("conditionType").asText()));
        }
        ObjectNode next = status.isObject() ? status.deepCopy() : Json.object();
        next.put("phase", "Running");
        ArrayNode conditions = next.putArray("conditions");
        for (JsonNode condition : status.path("conditions")) {
            if (!"Ready".equals(condition.path("type").asText())) {
                conditions.add(condition.deepCopy());
            }
        }
        ObjectNode ready = conditions.addObject().put("type", "Ready").put("status", gated ? "False" : "True");
        if (gated) {
            ready.put("reason", "ReadinessGatesNotReady");
        }
        return next;
    }

    private boolean jobMoves(ObjectNode job) {
        return !finished(job.path("status"));
    }

    /** Active, then complete; in a broken cluster each pod fails and is retried after a growing delay, until the backoff limit. */
    private JsonNode job(ObjectNode job) {
        JsonNode status = job.path("status");
        if (finished(status)) {
            return null;
        }
        String now = timestamp(clock.instant());
        ObjectNode next = Json.object().put("startTime", status.path("startTime").asText(now));
        int failed = status.path("failed").asInt(0);
        boolean active = status.path("active").asInt(0) > 0;
        if (!active && status.has("startTime") && !broken) {
            active = true;
        }
        if (!active) {
            next.put("active", 1);
            positive(next, "failed", failed);
            return next;
        }
        if (!broken) {
            next.put("succeeded", 1).put("completionTime", now);
            finished(next.putArray("conditions"), "SuccessCriteriaMet", "Complete", "CompletionsReached",
                    "Reached expected number of succeeded pods", now);
            return next;
        }
        failed++;
        next.put("failed", failed);
        if (failed > job.path("spec").path("backoffLimit").asInt(6)) {
            finished(next.putArray("conditions"), "FailureTarget", "Failed", "BackoffLimitExceeded",
                    "Job has reached the specified backoff limit", now);
        } else {
            Duration delay = JOB_BACKOFF.multipliedBy(1L << Math.min(failed - 1, 10));
            retries.put(Ids.of(job), clock.instant().plus(delay.compareTo(JOB_BACKOFF_CAP) > 0 ? JOB_BACKOFF_CAP : delay));
        }
        return next;
    }

    /**
     * A Job's end conditions as its controller writes them since Kubernetes 1.31, which the API server
     * requires: {@code Complete} only after {@code SuccessCriteriaMet}, {@code Failed} only after
     * {@code FailureTarget}, with the same reason and message.
     */
    private static void finished(ArrayNode conditions, String target, String end, String reason, String message, String now) {
        for (String type : new String[] {target, end}) {
            conditions.addObject().put("type", type).put("status", "True").put("reason", reason).put("message", message)
                    .put("lastProbeTime", now).put("lastTransitionTime", now);
        }
    }

    private static boolean finished(JsonNode status) {
        for (JsonNode condition : status.path("conditions")) {
            String type = condition.path("type").asText();
            if ((type.equals("Failed") || type.equals("Complete")) && "True".equals(condition.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    /** A condition as the real controllers keep it: its transition time moves only when its status does. */
    private ObjectNode condition(JsonNode status, String type, boolean value, String reason, String message) {
        String now = timestamp(clock.instant());
        JsonNode before = null;
        for (JsonNode condition : status.path("conditions")) {
            if (type.equals(condition.path("type").asText())) {
                before = condition;
            }
        }
        String text = value ? "True" : "False";
        boolean same = before != null && text.equals(before.path("status").asText());
        boolean unchanged = same && reason.equals(before.path("reason").asText()) && message.equals(before.path("message").asText());
        return Json.object().put("type", type).put("status", text)
                .put("lastUpdateTime", unchanged ? before.path("lastUpdateTime").asText(now) : now)
                .put("lastTransitionTime", same ? before.path("lastTransitionTime").asText(now) : now)
                .put("reason", reason).put("message", message);
    }

    private static String runningReplicaSet(JsonNode status) {
        for (JsonNode condition : status.path("conditions")) {
            if ("Progressing".equals(condition.path("type").asText())) {
                Matcher matcher = REPLICA_SET.matcher(condition.path("message").asText());
                if (matcher.find()) {
                    return matcher.group(1);
                }
            }
        }
        return null;
    }

    private static String conditionStatus(JsonNode status, String type) {
        for (JsonNode condition : status.path("conditions")) {
            if (type.equals(condition.path("type").asText())) {
                return condition.path("status").asText();
            }
        }
        return null;
    }

    /** A short hash of a pod template, as the controllers name a revision or ReplicaSet after it. */
    static String templateHash(JsonNode template) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(CanonicalJson.bytes(template.isMissingNode() ? Json.object() : template));
            return HexFormat.of().formatHex(digest, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long generation(JsonNode object) {
        return object.path("metadata").path("generation").asLong(1);
    }

    private static void positive(ObjectNode status, String field, int count) {
        if (count > 0) {
            status.put(field, count);
        }
    }

    private static String timestamp(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
