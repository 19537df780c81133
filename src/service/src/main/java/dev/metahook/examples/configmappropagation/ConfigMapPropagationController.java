package dev.metahook.examples.configmappropagation;

import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.Customizer;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Customize asks for the source ConfigMap and the namespaces the selector matches; sync answers one
 * copy per matching namespace (but the source's own), so a namespace that stops matching loses its
 * copy, and a source that is gone takes every copy with it.
 */
public final class ConfigMapPropagationController
        implements CompositeController<ConfigMapPropagation, ConfigMapPropagation.Status>, Customizer<ConfigMapPropagation> {

    @Override
    public List<RelatedRule> customize(ConfigMapPropagation propagation, Context context) {
        ConfigMapPropagation.Spec spec = valid(propagation);
        List<RelatedRule> rules = new ArrayList<>();
        rules.add(RelatedRule.named("v1", "configmaps", spec.sourceName()).inNamespace(spec.sourceNamespace()));
        if (spec.targetNamespaceSelector() != null) {
            rules.add(RelatedRule.selected("v1", "namespaces", spec.targetNamespaceSelector()));
        }
        return rules;
    }

    @Override
    public Result<ConfigMapPropagation.Status> sync(ConfigMapPropagation propagation, Context context) {
        ConfigMapPropagation.Spec spec = valid(propagation);
        Optional<ConfigMap> source = context.related().get(ConfigMap.class, spec.sourceNamespace(), spec.sourceName());
        List<String> targets = targets(spec, context);
        List<ConfigMap> copies = source.map(map -> targets.stream().map(target -> copy(map, target)).toList()).orElse(List.of());
        Conditions conditions = Conditions.from(propagation, context.clock());
        if (source.isEmpty()) {
            conditions.stalled("SourceNotFound", "ConfigMap " + spec.sourceNamespace() + "/" + spec.sourceName() + " does not exist");
        } else {
            conditions.ready("Propagated", "copied into " + targets.size() + " namespaces");
        }
        int actual = context.children().all(ConfigMap.class).size();
        return Result.of(copies)
                .deletingUnlisted()
                .withStatus(new ConfigMapPropagation.Status(targets.size(), actual, conditions.list()));
    }

    /**
     * The listed namespaces in their order, then the selected ones, once each (Metacontroller keeps one
     * ConfigMap per namespace and name, so a namespace listed twice is one copy), never the source's own.
     */
    private static List<String> targets(ConfigMapPropagation.Spec spec, Context context) {
        Set<String> targets = new LinkedHashSet<>(spec.targetNamespaces() == null ? List.of() : spec.targetNamespaces());
        if (spec.targetNamespaceSelector() != null) {
            context.related().all(Namespace.class).forEach(namespace -> targets.add(namespace.getMetadata().getName()));
        }
        targets.remove(spec.sourceNamespace());
        return List.copyOf(targets);
    }

    private static ConfigMap copy(ConfigMap source, String namespace) {
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(source.getMetadata().getName());
        metadata.setNamespace(namespace);
        ConfigMap copy = new ConfigMap();
        copy.setMetadata(metadata);
        // the original copies data and nothing else: binaryData stays with the source
        copy.setData(source.getData().isEmpty() ? null : source.getData());
        return copy;
    }

    private static ConfigMapPropagation.Spec valid(ConfigMapPropagation propagation) {
        ConfigMapPropagation.Spec spec = propagation.getSpec();
        if (spec == null || spec.sourceName() == null || spec.sourceNamespace() == null) {
            throw new TerminalException("InvalidSpec", "spec.sourceName and spec.sourceNamespace are required");
        }
        if (spec.targetNamespaces() == null && spec.targetNamespaceSelector() == null) {
            throw new TerminalException("InvalidSpec", "spec.targetNamespaces or spec.targetNamespaceSelector is required");
        }
        return spec;
    }
}
