package dev.metahook.examples.catset;

import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Context;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import dev.metahook.examples.catset.CatSet.Spec;
import dev.metahook.examples.catset.CatSet.Status;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * Pods and claims for a CatSet, as the original computes them. Sync keeps every pod it observes
 * (re-rendered from the template: Metacontroller's RollingRecreate strategy replaces one pod at a
 * time, waiting for it to be Ready), adds the lowest missing ordinal once all below it are running
 * and ready, and, when all wanted pods are ready, removes the highest surplus one. Pods are answered
 * highest ordinal first, as the original lists them, since that is the order RollingRecreate rolls
 * them in. Claims exist for every wanted ordinal and are kept after a scale-down. Finalize does the
 * same with zero replicas, so pods go highest ordinal first, and is done once no pod is left; the
 * claims go with the CatSet.
 */
public final class CatSetController implements CompositeController<CatSet, Status>, Cleaner<CatSet, Status> {

    @Override
    public Result<Status> sync(CatSet catSet, Context context) {
        return plan(catSet, valid(catSet).replicas(), context);
    }

    /**
     * Scales down to zero, one pod per call, whatever {@code spec.replicas} says (the original sets it
     * to zero before reading it). A spec whose template cannot be rendered does not stop the teardown:
     * the pods that stay are kept as last applied.
     */
    @Override
    public Cleanup<Status> cleanup(CatSet catSet, Context context) {
        boolean podsGone = observedPods(catSet, context).isEmpty();
        Result<Status> result = renderable(catSet.getSpec()) == null ? plan(catSet, 0, context) : scaleDownAsApplied(catSet, context);
        return podsGone ? Cleanup.done(result) : Cleanup.inProgress(result);
    }

    private static Result<Status> plan(CatSet catSet, int replicas, Context context) {
        NavigableMap<Integer, Pod> observed = observedPods(catSet, context);
        int ready = 0;
        while (ready < replicas && runningAndReady(observed.get(ready))) {
            ready++;
        }
        NavigableSet<Integer> ordinals = new TreeSet<>(observed.keySet());
        if (ready < replicas) {
            ordinals.add(ready);
        } else if (!ordinals.isEmpty() && ordinals.last() >= replicas) {
            ordinals.remove(ordinals.last());
        }
        List<HasMetadata> children = new ArrayList<>();
        // highest ordinal first: Metacontroller's RollingRecreate replaces pods in the order they are answered
        ordinals.descendingSet().forEach(ordinal -> children.add(pod(catSet, ordinal)));
        children.addAll(claims(catSet, replicas, context));
        return Result.of(children).deletingUnlisted().withStatus(new Status(observed.size(), ready));
    }

    /** The teardown step without a template: every pod but the highest, and every claim, as last applied. */
    private static Result<Status> scaleDownAsApplied(CatSet catSet, Context context) {
        NavigableMap<Integer, Pod> observed = observedPods(catSet, context);
        List<HasMetadata> children = new ArrayList<>();
        observed.headMap(observed.isEmpty() ? 0 : observed.lastKey(), false).descendingMap().values()
                .forEach(pod -> children.add(asApplied(Pod.class, pod, context)));
        context.children().all(PersistentVolumeClaim.class).forEach(claim -> children.add(asApplied(PersistentVolumeClaim.class, claim, context)));
        return Result.of(children).deletingUnlisted().withStatus(new Status(observed.size(), 0));
    }

    private static <T extends HasMetadata> T asApplied(Class<T> type, T observed, Context context) {
        return context.children().lastApplied(type, observed.getMetadata().getName()).orElseThrow();
    }

    private static NavigableMap<Integer, Pod> observedPods(CatSet catSet, Context context) {
        return Ordinals.byOrdinal(catSet.getMetadata().getName(), context.children().all(Pod.class));
    }

    private static boolean runningAndReady(Pod pod) {
        if (pod == null || pod.getStatus() == null || pod.getMetadata().getDeletionTimestamp() != null
                || !"Running".equals(pod.getStatus().getPhase())) {
            return false;
        }
        return pod.getStatus().getConditions().stream()
                .filter(condition -> "Ready".equals(condition.getType()))
                .findFirst().map(PodCondition::getStatus).map("True"::equals).orElse(false);
    }

    private static Pod pod(CatSet catSet, int ordinal) {
        Spec spec = catSet.getSpec();
        String name = catSet.getMetadata().getName() + "-" + ordinal;
        List<Volume> claims = new ArrayList<>();
        for (PersistentVolumeClaim template : templates(spec)) {
            String volume = template.getMetadata().getName();
            claims.add(new VolumeBuilder().withName(volume)
                    .withNewPersistentVolumeClaim().withClaimName(volume + "-" + name).endPersistentVolumeClaim().build());
        }
        return new PodBuilder()
                .withMetadata(new ObjectMetaBuilder(spec.template().getMetadata()).withName(name).build())
                .withSpec(new PodSpecBuilder(spec.template().getSpec())
                        .withHostname(name).withSubdomain(spec.serviceName()).addAllToVolumes(claims).build())
                .build();
    }

    /** A claim per wanted ordinal and template, and the claims of higher ordinals that already exist. */
    private static List<PersistentVolumeClaim> claims(CatSet catSet, int replicas, Context context) {
        Map<String, PersistentVolumeClaim> claims = new LinkedHashMap<>();
        List<PersistentVolumeClaim> observed = context.children().all(PersistentVolumeClaim.class);
        for (PersistentVolumeClaim template : templates(catSet.getSpec())) {
            String base = template.getMetadata().getName() + "-" + catSet.getMetadata().getName();
            for (int ordinal = 0; ordinal < replicas; ordinal++) {
                claims.put(base + "-" + ordinal, claim(base + "-" + ordinal, template));
            }
            for (PersistentVolumeClaim claim : observed) {
                String name = claim.getMetadata().getName();
                if (Ordinals.of(base, name) >= replicas) {
                    claims.putIfAbsent(name, claim(name, template));
                }
            }
        }
        return List.copyOf(claims.values());
    }

    private static PersistentVolumeClaim claim(String name, PersistentVolumeClaim template) {
        return new PersistentVolumeClaimBuilder(template)
                .withApiVersion("v1").withKind("PersistentVolumeClaim")
                .editMetadata().withName(name).endMetadata()
                .build();
    }

    private static List<PersistentVolumeClaim> templates(Spec spec) {
        return spec.volumeClaimTemplates() == null ? List.of() : spec.volumeClaimTemplates();
    }

    private static Spec valid(CatSet catSet) {
        Spec spec = catSet.getSpec();
        if (spec == null || spec.replicas() == null || spec.replicas() < 0) {
            throw new TerminalException("InvalidSpec", "spec.replicas: a whole number of at least 0 is required");
        }
        String unrenderable = renderable(spec);
        if (unrenderable != null) {
            throw new TerminalException("InvalidSpec", unrenderable);
        }
        return spec;
    }

    /** Why pods and claims cannot be made from this spec, or null when they can. */
    private static String renderable(Spec spec) {
        if (spec == null || spec.template() == null || spec.template().getMetadata() == null || spec.template().getSpec() == null) {
            return "spec.template: metadata and spec are required";
        }
        for (int i = 0; i < templates(spec).size(); i++) {
            PersistentVolumeClaim template = templates(spec).get(i);
            if (template == null || template.getMetadata() == null || template.getMetadata().getName() == null) {
                return "spec.volumeClaimTemplates[" + i + "].metadata.name: is required";
            }
        }
        return null;
    }
}
