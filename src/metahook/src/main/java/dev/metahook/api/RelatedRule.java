package dev.metahook.api;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;

/**
 * One rule of a customize answer: which objects of one resource the sync hook should see. Made by
 * {@link #named} or {@link #selected}; a rule with neither names nor selector would select every
 * object of the resource, so there is no factory for it.
 */
public record RelatedRule(String apiVersion, String resource, String namespace, LabelSelector labelSelector,
                          LabelSelector namespaceSelector, List<String> names) {

    public RelatedRule {
        names = names == null ? List.of() : List.copyOf(names);
    }

    /** Objects of the resource with these names. */
    public static RelatedRule named(String apiVersion, String resource, String... names) {
        return new RelatedRule(apiVersion, resource, null, null, null, List.of(names));
    }

    /** Objects of the resource whose labels match the selector. */
    public static RelatedRule selected(String apiVersion, String resource, LabelSelector selector) {
        return new RelatedRule(apiVersion, resource, null, selector, null, List.of());
    }

    /** Only in this namespace. */
    public RelatedRule inNamespace(String namespace) {
        return new RelatedRule(apiVersion, resource, namespace, labelSelector, namespaceSelector, names);
    }

    /** Only in namespaces whose labels match (v2 hooks, or cluster-scoped parents). */
    public RelatedRule inNamespacesSelectedBy(LabelSelector selector) {
        return new RelatedRule(apiVersion, resource, namespace, labelSelector, selector, names);
    }
}
