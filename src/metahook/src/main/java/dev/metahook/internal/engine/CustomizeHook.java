package dev.metahook.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.TerminalException;
import dev.metahook.internal.contract.AnswerRules;
import dev.metahook.internal.contract.Breach;
import dev.metahook.internal.wire.CanonicalJson;
import dev.metahook.internal.wire.CustomizeRequest;
import dev.metahook.internal.wire.CustomizeResponse;
import dev.metahook.internal.wire.HookVersion;
import dev.metahook.internal.wire.Json;
import dev.metahook.internal.wire.ObjectMap;
import dev.metahook.internal.wire.ResponseCheck;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The customize hook: the controller's related-resource rules, checked against what Metacontroller
 * accepts. A parent whose spec cannot be read gets no rules; its sync reports the invalid spec.
 */
final class CustomizeHook {
    private final Clock clock;

    CustomizeHook(Clock clock) {
        this.clock = clock;
    }

    <P extends HasMetadata> HookAnswer call(Registration<P> registration, CustomizeRequest request) {
        String field = "parent";
        boolean composite = registration.kind() == Kind.COMPOSITE;
        JsonNode controller = composite ? request.controller() : Json.object();
        TypedObjects.checkKind(request.parent(), registration.type(), controller, field);
        List<RelatedRule> rules;
        // The answer is cached per generation and must follow from the spec alone: a status that does not fit is left out.
        var typed = TypedObjects.read(request.parent(), registration.type(), field, true);
        try {
            if (typed.invalid() != null) {
                throw typed.invalid();
            }
            rules = registration.customizer().orElseThrow().customize(typed.object(), context(request, composite));
            if (rules == null || rules.stream().anyMatch(Objects::isNull)) {
                throw new IllegalStateException("customize returned null or a null rule");
            }
        } catch (TerminalException e) {
            rules = List.of();
        }
        List<ObjectNode> trees = rules.stream().map(CustomizeHook::tree).toList();
        CustomizeResponse response = new CustomizeResponse(trees);
        check(response, request);
        return HookAnswer.ok(CanonicalJson.bytes(response.toJson()), "customized", trees.size());
    }

    /** Metacontroller sends customize only the controller and the parent: no children, no related objects. */
    private HookContext context(CustomizeRequest request, boolean composite) {
        String namespace = CompositeHooks.namespaceOf(request.parent());
        ObservedView none = ObservedView.children(ObjectMap.empty(), namespace, "children");
        return new HookContext(none, none, new ControllerObject(request.controller(), composite ? "childResources" : "attachments"),
                false, clock, request.parent());
    }

    private static ObjectNode tree(RelatedRule rule) {
        ObjectNode out = Json.object();
        putIfPresent(out, "apiVersion", rule.apiVersion());
        putIfPresent(out, "resource", rule.resource());
        putIfPresent(out, "namespace", rule.namespace());
        if (rule.labelSelector() != null) {
            out.set("labelSelector", Json.tree(rule.labelSelector()));
        }
        if (rule.namespaceSelector() != null) {
            out.set("namespaceSelector", Json.tree(rule.namespaceSelector()));
        }
        if (!rule.names().isEmpty()) {
            rule.names().forEach(out.putArray("names")::add);
        }
        return out;
    }

    private static void putIfPresent(ObjectNode out, String field, String value) {
        if (value != null && !value.isEmpty()) {
            out.put(field, value);
        }
    }

    /** What Metacontroller's decoder refuses ({@code malformed}), then each rule's {@link AnswerRules#relatedRule}. */
    private static void check(CustomizeResponse response, CustomizeRequest request) {
        List<Breach> breaches = new ArrayList<>();
        ResponseCheck.customize(response.toJson(), true).forEach(problem -> breaches.add(new Breach("malformed", problem)));
        String namespace = request.parent().path("metadata").path("namespace").asText("");
        boolean v1 = HookVersion.declared(request.controller(), "customize") == HookVersion.V1;
        List<ObjectNode> rules = response.relatedResources();
        for (int i = 0; i < rules.size(); i++) {
            breaches.addAll(AnswerRules.relatedRule(rules.get(i), i, namespace, v1));
        }
        if (!breaches.isEmpty()) {
            throw new GuardViolation(breaches);
        }
    }
}
