package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.CustomizeRequest;
import dev.metahook.internal.wire.GroupKey;
import dev.metahook.internal.wire.HookVersion;
import dev.metahook.internal.wire.LabelSelectors;
import dev.metahook.internal.wire.ObjectMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Metacontroller's customize step for one parent (or decorator target): call the customize hook,
 * select the related objects its rules ask for from the cluster, and key them as the sync hook's
 * version says. Every result is kept, so a check can tell whether a rule ever selected anything.
 *
 * <p>A rule names a type by {@code apiVersion} and {@code resource}; an object is of that type when
 * its apiVersion matches and its kind's plural (the Kubernetes model's, {@link GroupKey#guessResource})
 * is the resource. Then, as Metacontroller selects: {@code names} picks by name, else
 * {@code labelSelector} (absent: everything); {@code namespace} restricts to one namespace ({@code *}:
 * all), {@code namespaceSelector} to the namespaces whose labels it matches; without either, a v2
 * customize hook sees every namespace and the cluster-scoped objects (Metacontroller's
 * {@code GetRelatedObjects}), a v1 hook of a namespaced parent its own namespace only. A
 * rule Metacontroller refuses ({@link AnswerRules#relatedRule}) fails the sync. A v1
 * sync request of a namespaced parent drops objects of other namespaces and cluster-scoped ones.
 */
public final class Customize {
    private final ControllerSpec spec;
    private final Cluster store;
    private final HookClient hooks;
    private final ResourceKinds kinds;
    private final List<Result> history = new ArrayList<>();

    Customize(ControllerSpec spec, Cluster store, HookClient hooks, ResourceKinds kinds) {
        this.spec = spec;
        this.store = store;
        this.hooks = hooks;
        this.kinds = kinds;
    }

    /** One rule of an answer and how many objects it selected. */
    public record Selected(JsonNode rule, int objects) {
        /** The rule as one line, e.g. {@code v1 configmaps names [source] in namespace default}. */
        public String describe() {
            StringBuilder text = new StringBuilder(rule.path("apiVersion").asText() + " " + rule.path("resource").asText());
            if (rule.has("names")) {
                text.append(" names ").append(rule.get("names"));
            }
            if (rule.has("labelSelector")) {
                text.append(" labelSelector ").append(CanonicalJson.string(rule.get("labelSelector")));
            }
            if (rule.has("namespace")) {
                text.append(" in namespace ").append(rule.path("namespace").asText());
            }
            if (rule.has("namespaceSelector")) {
                text.append(" namespaceSelector ").append(CanonicalJson.string(rule.get("namespaceSelector")));
            }
            return text.toString();
        }
    }

    /**
     * One customize step: the call (null without a customize hook; a refused rule is among its
     * refusals, as it fails the sync), the related map for the sync request, each rule with what it selected.
     */
    public record Result(CompositeSimulator.HookCall call, ObjectMap related, List<Selected> rules) {
        public boolean failed() {
            return call != null && !call.succeeded();
        }
    }

    /** Every customize step run so far, in order. */
    public List<Result> history() {
        return List.copyOf(history);
    }

    /** Runs customize for the parent as it is now; without a customize hook the related map is empty. */
    Result related(ObjectNode parent, HookVersion syncVersion) {
        if (!spec.hooks().containsKey("customize")) {
            return new Result(null, ObjectMap.empty(), List.of());
        }
        CompositeSimulator.HookCall call = CompositeSimulator.HookCall.send(hooks, spec, "customize",
                new CustomizeRequest(spec.manifest(), parent).toJson());
        Result result = call.succeeded() ? select(call, parent, syncVersion) : new Result(call, ObjectMap.empty(), List.of());
        history.add(result);
        return result;
    }

    private Result select(CompositeSimulator.HookCall call, ObjectNode parent, HookVersion syncVersion) {
        List<ObjectNode> all = store.all();
        all.forEach(kinds::learn);
        HookVersion version = spec.hooks().get("customize").version();
        String parentNamespace = parent.path("metadata").path("namespace").asText("");
        List<ObjectNode> related = new ArrayList<>();
        List<GroupKey> groups = new ArrayList<>();
        List<Selected> rules = new ArrayList<>();
        JsonNode answered = call.response().path("relatedResources");
        for (int i = 0; i < answered.size(); i++) {
            JsonNode rule = answered.get(i);
            List<Breach> refused = spec.discovery().mayServe(rule.path("apiVersion").asText(), rule.path("resource").asText())
                    ? AnswerRules.relatedRule(rule, i, parentNamespace, version == HookVersion.V1) : List.of(unserved(rule));
            if (!refused.isEmpty()) {
                return new Result(new CompositeSimulator.HookCall(call.hook(), call.request(), call.reply(), call.response(),
                        call.problems(), refused), ObjectMap.empty(), rules);
            }
            String kind = kinds.kind(rule.path("apiVersion").asText(), rule.path("resource").asText());
            List<ObjectNode> selected = kind == null ? List.of()
                    : all.stream().filter(object -> selects(rule, kind, parentNamespace, version, all, object)).toList();
            if (kind != null) {
                groups.add(new GroupKey(kind, rule.path("apiVersion").asText()));
            }
            List<ObjectNode> sent = selected.stream().filter(object -> visible(object, parentNamespace, syncVersion)).toList();
            sent.stream().filter(object -> !related.contains(object)).forEach(related::add);
            rules.add(new Selected(rule, sent.size()));
        }
        return new Result(call, ObjectMap.of(related, groups, syncVersion, !parentNamespace.isEmpty()), rules);
    }

    /**
     * A rule of a resource the API server does not serve. Metacontroller looks each rule's resource up in discovery
     * before it selects anything (getRelatedClient, pkg/controller/common/customize/manager.go, v4.17.2 lines 240-248 and
     * 580-584; the same from v1.5.0), and the error fails the sync before the sync or finalize hook is called
     * (pkg/controller/composite/controller.go lines 653-656, pkg/controller/decorator/controller.go lines 653-656).
     */
    private Breach unserved(JsonNode rule) {
        String apiVersion = rule.path("apiVersion").asText();
        String resource = rule.path("resource").asText();
        String error = "discovery: can't find resource " + resource + " in apiVersion " + apiVersion;
        return new Breach("unserved", "customize asked for related " + apiVersion + " " + resource + ", which is not served: "
                + spec.discovery().whyUnserved(apiVersion, resource) + ". Metacontroller's discovery does not find it (" + error
                + "), so every sync of the " + (spec.decorator() ? "target" : "parent") + " fails there, after customize and before the"
                + " sync hook, and is retried with backoff (from v1.5.6 with a SyncError event on it: Sync error: " + error + "): "
                + (spec.hasFinalize() ? "the sync and finalize hooks are" : "the sync hook is") + " never called, no child or status is written" + (spec.hasFinalize() ? ", and once deleted"
                + " it keeps the controller's finalizer" : "") + ", on every release from v1.5.0 to v4.17.2. To fix: "
                + spec.discovery().remedy(apiVersion, resource, "the rule"));
    }

    private static boolean selects(JsonNode rule, String kind, String parentNamespace, HookVersion version, List<ObjectNode> all,
                                   JsonNode object) {
        if (!kind.equals(object.path("kind").asText()) || !rule.path("apiVersion").asText().equals(object.path("apiVersion").asText())
                || !inNamespace(rule, parentNamespace, version, all, object.path("metadata").path("namespace").asText(""))) {
            return false;
        }
        if (rule.path("names").size() > 0) {
            for (JsonNode name : rule.path("names")) {
                if (name.asText().equals(object.path("metadata").path("name").asText())) {
                    return true;
                }
            }
            return false;
        }
        return LabelSelectors.matches(rule.path("labelSelector"), object.path("metadata").path("labels"));
    }

    private static boolean inNamespace(JsonNode rule, String parentNamespace, HookVersion version, List<ObjectNode> all, String namespace) {
        String wanted = rule.path("namespace").asText("");
        if (wanted.equals("*")) {
            return true;
        }
        if (!wanted.isEmpty()) {
            return wanted.equals(namespace);
        }
        if (rule.hasNonNull("namespaceSelector")) {
            return selectedNamespaces(rule.get("namespaceSelector"), all).contains(namespace);
        }
        return parentNamespace.isEmpty() || parentNamespace.equals(namespace) || version == HookVersion.V2;
    }

    private static Set<String> selectedNamespaces(JsonNode selector, List<ObjectNode> all) {
        Set<String> names = new HashSet<>();
        for (ObjectNode object : all) {
            if (object.path("kind").asText().equals("Namespace") && object.path("apiVersion").asText().equals("v1")
                    && LabelSelectors.matches(selector, object.path("metadata").path("labels"))) {
                names.add(object.path("metadata").path("name").asText());
            }
        }
        return names;
    }

    /** Whether a sync request of this version carries the object: a v1 request of a namespaced parent only its own namespace. */
    private static boolean visible(JsonNode object, String parentNamespace, HookVersion syncVersion) {
        return parentNamespace.isEmpty() || syncVersion == HookVersion.V2
                || parentNamespace.equals(object.path("metadata").path("namespace").asText(""));
    }
}
