package dev.metahook.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.Hook;
import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.registration.ControllerManifest;
import dev.metahook.internal.sim.Checker;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.InProcessHook;
import dev.metahook.internal.sim.KubernetesVersion;
import dev.metahook.internal.sim.MetacontrollerVersion;
import dev.metahook.internal.sim.VersionedCheck;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * One registered controller under test, called in-process through the engine that serves it in
 * production. Requests are built as Metacontroller sends them: the parent with a uid, generation and
 * finalizer; observed children with the last-applied annotation, owner reference and
 * {@code controller-uid} label Metacontroller gives them; related objects keyed as the hook's version
 * keys them.
 *
 * <pre>{@code
 * HookTester tester = HookTester.of(controllers, "greeting");
 * Answer answer = tester.sync(greeting).observing(configMap).call();
 * assertEquals("hello", answer.child(ConfigMap.class, "hi").orElseThrow().getData().get("message"));
 * }</pre>
 */
public final class HookTester {
    /** The clock tests get unless they choose one: a fixed instant, so answers are the same on every run. */
    public static final Clock FIXED_CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    /** The hook service the generated manifest names; calls never leave the process. */
    private static final String IN_PROCESS = "in-process";

    private final Controllers controllers;
    private final Registration<?> registration;
    private final ObjectNode manifest;
    private final Clock clock;
    private final List<ObjectNode> definitions;
    private final List<KubernetesVersion.Span> kubernetes;
    private final MetacontrollerVersion metacontroller;
    private final HookEngine engine;

    private HookTester(Controllers controllers, Registration<?> registration, ObjectNode manifest, Clock clock, List<ObjectNode> definitions,
                       List<KubernetesVersion.Span> kubernetes, MetacontrollerVersion metacontroller) {
        this.controllers = controllers;
        this.registration = registration;
        this.manifest = manifest;
        this.clock = clock;
        this.definitions = List.copyOf(definitions);
        this.kubernetes = List.copyOf(kubernetes);
        this.metacontroller = metacontroller;
        this.engine = new HookEngine(controllers, clock);
    }

    /**
     * The named controller, registered as it would be served, with its CompositeController (or DecoratorController)
     * manifest; a CustomResourceDefinition of the parent in the same file is used as {@link #withDefinitions(Path)} says.
     */
    public static HookTester of(Controllers controllers, String name, Path manifest) {
        List<ObjectNode> objects = Manifests.trees(manifest);
        ObjectNode controller = objects.stream()
                .filter(object -> object.path("kind").asText().endsWith("Controller")
                        && object.path("apiVersion").asText().startsWith("metacontroller.k8s.io/"))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(manifest + ": holds no CompositeController or DecoratorController"));
        return new HookTester(controllers, registration(controllers, name), controller, FIXED_CLOCK, objects, KubernetesVersion.spans(),
                MetacontrollerVersion.NEWEST);
    }

    /**
     * The named controller with the CompositeController (or DecoratorController) its registration
     * generates: the declared children, resync, selectors and hook version, as
     * the build-time manifests write them for the cluster.
     */
    public static HookTester of(Controllers controllers, String name) {
        Registration<?> registration = registration(controllers, name);
        return new HookTester(controllers, registration, ControllerManifest.of(registration, IN_PROCESS, IN_PROCESS + "-system"), FIXED_CLOCK,
                List.of(), KubernetesVersion.spans(), MetacontrollerVersion.NEWEST);
    }

    /**
     * The named controller with a manifest made up for the test: the parent's resource, these child (or
     * attachment) types with {@code InPlace} updates, {@code generateSelector: true}, v1 hooks for the
     * capabilities it has.
     */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array goes only to List.of, which copies it
    public static HookTester of(Controllers controllers, String name, Class<? extends HasMetadata>... childTypes) {
        Registration<?> registration = registration(controllers, name);
        return new HookTester(controllers, registration, manifest(registration, List.of(childTypes)), FIXED_CLOCK, List.of(),
                KubernetesVersion.spans(), MetacontrollerVersion.NEWEST);
    }

    /** The same controller under another clock (conditions carry its time). */
    public HookTester withClock(Clock clock) {
        return new HookTester(controllers, registration, manifest, clock, definitions, kubernetes, metacontroller);
    }

    /**
     * The same controller with the parent's CustomResourceDefinition from this file (the generated CRD, or
     * what {@code kubectl kustomize target/deploy} renders): {@code check} then keeps of the parent only what
     * the CRD's schema declares, as the API server does, and reports each status field the API server would
     * drop ({@code pruned-status}). Without it, nothing is pruned.
     */
    public HookTester withDefinitions(Path file) {
        return new HookTester(controllers, registration, manifest, clock, Manifests.trees(file), kubernetes, metacontroller);
    }

    /**
     * The same controller checked on one Kubernetes minor ({@code "1.32"}, {@code "v1.32.4"}), whose API server
     * decides how the simulator stores objects. Without it, {@code check} runs on every span of the supported minors
     * (1.29 to 1.37) whose API servers store objects alike, and each breach says which minors it holds on.
     *
     * @throws IllegalArgumentException for a version that is not one, or outside 1.29 to 1.37
     */
    public HookTester withKubernetesVersion(String version) {
        return new HookTester(controllers, registration, manifest, clock, definitions,
                List.of(KubernetesVersion.Span.of(KubernetesVersion.parse(version))), metacontroller);
    }

    /**
     * The same controller checked under another Metacontroller release ({@code "v4.10.2"}; v1.5.0 to v4.17.2, the
     * newest by default), where releases behave differently: from v4.10.3 on, a rolling update of namespaced children
     * stalls after the first child, which {@code check} reports as {@code metacontroller-stalls-rollout}.
     *
     * @throws IllegalArgumentException for a version that is not one, or outside v1.5.0 to v4.17.2
     */
    public HookTester withMetacontrollerVersion(String version) {
        return new HookTester(controllers, registration, manifest, clock, definitions, kubernetes, MetacontrollerVersion.parse(version));
    }

    /** A sync call for this parent (a decorator's target). */
    public HookCall sync(HasMetadata parent) {
        return new HookCall(this, Hook.SYNC, parent);
    }

    /** A finalize call: the parent is being deleted (its {@code deletionTimestamp} is set to now unless it has one). */
    public HookCall finalize(HasMetadata parent) {
        return new HookCall(this, Hook.FINALIZE, parent);
    }

    /** A customize call for this parent. */
    public HookCall customize(HasMetadata parent) {
        return new HookCall(this, Hook.CUSTOMIZE, parent);
    }

    /**
     * The parent's (or target's) life under the simulator, as {@code check} drives it: create,
     * converge (the workload controllers played), the same request twice and reordered, delete and
     * finalize.
     */
    public CheckReport check(HasMetadata parent) {
        return check(parent, null, List.of());
    }

    /** The same, with a spec change to {@code updated} after convergence. */
    public CheckReport check(HasMetadata parent, HasMetadata updated) {
        return check(parent, updated, List.of());
    }

    /**
     * The same, with objects in the cluster that the customize hook may select as related objects; a
     * hook whose customize selects none of them is reported ({@code no-related}), and so is one whose
     * answer does not change when a related object goes ({@code ignores-related}).
     */
    public CheckReport check(HasMetadata parent, HasMetadata updated, List<? extends HasMetadata> clusterObjects) {
        ControllerSpec spec = ControllerSpec.read(manifest).withDefinitions(definitions);
        InProcessHook hook = new InProcessHook(engine, registration.name());
        List<JsonNode> related = clusterObjects.stream().map(Json::tree).toList();
        JsonNode updatedTree = updated == null ? null : Json.tree(updated);
        JsonNode parentTree = Json.tree(parent);
        return VersionedCheck.run(kubernetes, metacontroller,
                versions -> new Checker(spec, hook, clock, 20, versions).check(parentTree, updatedTree, related));
    }

    Registration<?> registration() {
        return registration;
    }

    ObjectNode manifest() {
        return manifest;
    }

    Clock clock() {
        return clock;
    }

    HookEngine engine() {
        return engine;
    }

    private static Registration<?> registration(Controllers controllers, String name) {
        return controllers.get(name).orElseThrow(() -> new IllegalArgumentException(
                "no controller is registered as '" + name + "'; registered: " + controllers.names()));
    }

    private static ObjectNode manifest(Registration<?> registration, List<Class<? extends HasMetadata>> childTypes) {
        boolean composite = registration.kind() == Kind.COMPOSITE;
        ObjectNode manifest = Json.object().put("apiVersion", "metacontroller.k8s.io/v1alpha1")
                .put("kind", composite ? "CompositeController" : "DecoratorController");
        manifest.putObject("metadata").put("name", registration.name() + "-controller");
        ObjectNode spec = manifest.putObject("spec");
        Class<? extends HasMetadata> type = registration.type();
        ObjectNode resource = Json.object().put("apiVersion", HasMetadata.getApiVersion(type))
                .put("resource", HasMetadata.getPlural(type));
        if (composite) {
            spec.put("generateSelector", true);
            spec.set("parentResource", resource);
        } else {
            spec.putArray("resources").add(resource);
        }
        ArrayNode children = spec.putArray(composite ? "childResources" : "attachments");
        for (Class<? extends HasMetadata> childType : childTypes) {
            ObjectNode child = children.addObject().put("apiVersion", HasMetadata.getApiVersion(childType))
                    .put("resource", HasMetadata.getPlural(childType));
            if (composite) {
                child.putObject("updateStrategy").put("method", "InPlace");
            }
        }
        ObjectNode hooks = spec.putObject("hooks");
        for (Hook hook : registration.hooks()) {
            hooks.putObject(hook.segment()).put("version", "v1").putObject("webhook")
                    .put("url", "http://in-process/" + registration.name() + "/" + hook.segment());
        }
        return manifest;
    }
}
