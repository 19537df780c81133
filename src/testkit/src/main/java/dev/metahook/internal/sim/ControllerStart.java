package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahook.internal.contract.Breach;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What Metacontroller must find before it starts a CompositeController or a DecoratorController, as its releases
 * v1.5.0 to v4.17.2 look for it: a composite's parent resource (from v3.0.0 its CustomResourceDefinition), a
 * decorator's resources, and every declared child (attachment) resource. Each it does not find is an {@code unserved}
 * breach of its own: Metacontroller stops at the first, and shows the next once that one is put right. A resource of a
 * group the check has no definition for is assumed served ({@link Discovery#mayServe}).
 */
final class ControllerStart {
    private static final String NOTHING_CHECKED = ", so no hook is called for any parent and nothing was checked. To fix: ";

    private ControllerStart() {
    }

    /** Every resource that keeps this release from starting the controller, each a breach; none when it starts. */
    static List<Breach> failures(ControllerSpec spec, MetacontrollerVersion release) {
        List<Breach> failures = new ArrayList<>();
        if (spec.decorator()) {
            for (JsonNode resource : spec.manifest().path("spec").path("resources")) {
                target(spec, release, resource.path("apiVersion").asText(), resource.path("resource").asText()).ifPresent(failures::add);
            }
        } else {
            JsonNode parent = spec.manifest().path("spec").path("parentResource");
            String apiVersion = parent.path("apiVersion").asText();
            String resource = parent.path("resource").asText();
            (release.readsParentDefinition() ? parentDefinition(spec, release, apiVersion, resource)
                    : parentInDiscovery(spec, release, apiVersion, resource)).ifPresent(failures::add);
        }
        spec.childResources().forEach(child -> child(spec, release, child).ifPresent(failures::add));
        return failures;
    }

    /**
     * v3.0.0 and later get the CustomResourceDefinition {@code <resource>.<group>} and look in it for the status
     * subresource of the parent's version (pkg/controller/composite/metacontroller.go, v4.17.2 lines 126-153): no such
     * definition is an error, logged and retried; no status subresource in that version (none listed there, or a
     * version it does not list) ignores the controller with a Warning event. Then the controller's discovery must find
     * the resource (pkg/controller/composite/controller.go, lines 119-122), which a version listed with
     * {@code served: false} fails.
     */
    private static Optional<Breach> parentDefinition(ControllerSpec spec, MetacontrollerVersion release, String apiVersion, String resource) {
        Discovery discovery = spec.discovery();
        String group = Discovery.groupOf(apiVersion);
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        Optional<Discovery.Definition> definition = discovery.definition(group, resource);
        if (definition.isPresent()) {
            Optional<Discovery.Version> listed = definition.get().version(version);
            if (listed.isPresent() && listed.get().served()) {
                return Optional.empty();
            }
            if (listed.isEmpty() || !listed.get().status()) {
                return Optional.of(unserved(spec, release, "parentResource", apiVersion, resource, "Metacontroller reads that"
                        + " CustomResourceDefinition, finds no status subresource for " + version + " in it, and ignores the controller"
                        + " with a Warning event ([" + spec.name() + "] Sync error - ignoring, CRD [...] does not have subresource"
                        + " 'Status' enabled) until the controller changes", discovery.remedy(apiVersion, resource, "parentResource")));
            }
            return Optional.of(unserved(spec, release, "parentResource", apiVersion, resource, "Metacontroller finds the status"
                    + " subresource of " + version + " in that CustomResourceDefinition, then its discovery does not find the resource: "
                    + createError(release, "discovery: can't find resource " + resource + " in apiVersion " + apiVersion),
                    discovery.remedy(apiVersion, resource, "parentResource")));
        }
        if (!discovery.knows(apiVersion, resource)) {
            return Optional.empty();
        }
        String name = resource + "." + group;
        String read = "From v3.0.0 on, Metacontroller reads the parent's CustomResourceDefinition, " + name + ", which is not there: it"
                + " logs the error (customresourcedefinitions.apiextensions.k8s.io \"" + name + "\" not found) and retries with backoff,"
                + " recording no event";
        if (discovery.servesResource(apiVersion, resource)) {
            return Optional.of(new Breach("unserved", cannotStart(spec, release) + "its parentResource " + apiVersion + " " + resource
                    + " is a built-in resource, not a custom one. " + read + NOTHING_CHECKED + "a CompositeController's parent is a"
                    + " custom resource from v3.0.0 on (older releases look it up in discovery alone): decorate a built-in resource with"
                    + " a DecoratorController instead"));
        }
        return Optional.of(unserved(spec, release, "parentResource", apiVersion, resource, read,
                discovery.remedy(apiVersion, resource, "parentResource")));
    }

    /**
     * Before v3.0.0, the parent resource is looked up in discovery: from v1.5.4 by the CompositeController's sync before
     * it makes the controller (pkg/controller/composite/metacontroller.go, v2.6.1 lines 119-122), before that as the first
     * step of making it (controller/composite/controller.go, v1.5.0 line 83); either way the error is returned, logged
     * and retried, with no event.
     */
    private static Optional<Breach> parentInDiscovery(ControllerSpec spec, MetacontrollerVersion release, String apiVersion, String resource) {
        if (spec.discovery().mayServe(apiVersion, resource)) {
            return Optional.empty();
        }
        return Optional.of(unserved(spec, release, "parentResource", apiVersion, resource, "Metacontroller's discovery does not find it:"
                + " it logs the error (discovery: can't find resource " + resource + " in apiVersion " + apiVersion + ") and retries with"
                + " backoff, recording no event", spec.discovery().remedy(apiVersion, resource, "parentResource")));
    }

    /** A decorator's resource, looked up first of all (newDecoratorSelector, pkg/controller/decorator/selector.go, v4.17.2 lines 39-44). */
    private static Optional<Breach> target(ControllerSpec spec, MetacontrollerVersion release, String apiVersion, String resource) {
        if (spec.discovery().mayServe(apiVersion, resource)) {
            return Optional.empty();
        }
        return Optional.of(unserved(spec, release, "resource", apiVersion, resource, "Metacontroller's discovery does not find it: "
                + createError(release, "can't find resource \"" + resource + "\" in apiVersion \"" + apiVersion + "\""),
                spec.discovery().remedy(apiVersion, resource, "the resource")));
    }

    /**
     * A declared child (attachment) resource, which the controller's discovery must find: first for its update
     * strategy when it has one but OnDelete (makeUpdateStrategyMap), else for its informer. Only the built-in kinds and
     * the definitions given count as served here: a child the cluster cannot write is worth knowing before it ships.
     */
    private static Optional<Breach> child(ControllerSpec spec, MetacontrollerVersion release, ControllerSpec.ChildResource child) {
        if (spec.discovery().servesResource(child.apiVersion(), child.resource())) {
            return Optional.empty();
        }
        String error = child.updateMethod().equals("OnDelete")
                ? "can't create informer for child resource: can't create client for " + child.resource() + "." + child.apiVersion()
                + " shared informer: discovery: can't find resource " + child.resource() + " in apiVersion " + child.apiVersion()
                : "can't find child resource \"" + child.resource() + "\" in " + child.apiVersion();
        return Optional.of(new Breach("unserved", cannotStart(spec, release) + "its " + (spec.decorator() ? "attachment" : "child")
                + " resource " + child.apiVersion() + " " + child.resource() + " is not served: " + createError(release, error)
                + NOTHING_CHECKED + "the API server here serves the built-in kinds and the CustomResourceDefinitions given with the"
                + " controller: give the one that defines this resource, or fix its apiVersion or plural"));
    }

    /** {@code field}'s resource not served: why, what Metacontroller does about it, and what to do. */
    private static Breach unserved(ControllerSpec spec, MetacontrollerVersion release, String field, String apiVersion, String resource,
                                   String done, String remedy) {
        return new Breach("unserved", cannotStart(spec, release) + "its " + field + " " + apiVersion + " " + resource + " is not served: "
                + spec.discovery().whyUnserved(apiVersion, resource) + ". " + done + NOTHING_CHECKED + remedy);
    }

    private static String cannotStart(ControllerSpec spec, MetacontrollerVersion release) {
        return "Metacontroller " + release + " cannot start the " + spec.manifest().path("kind").asText() + " " + spec.name() + ": ";
    }

    /**
     * What a release does when it cannot make a controller: a CreateError event from v1.5.6
     * (pkg/controller/composite/metacontroller.go, v4.17.2 lines 188-194, and the decorator's, lines 148-154), a log line before.
     */
    private static String createError(MetacontrollerVersion release, String error) {
        return release.recordsErrorEvents()
                ? "it records a CreateError event on the controller (Cannot create new controller: " + error + ") and retries with backoff"
                : "it logs the error (" + error + ") and retries with backoff, recording no event (events came with v1.5.6)";
    }

}
