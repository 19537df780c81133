package dev.metahook.internal.sim;

import dev.metahook.api.ChildId;
import java.util.List;

/**
 * Desired children whose kind the API server does not serve: Metacontroller's dynamic client finds no resource for
 * them ({@code dynClient.Kind}, pkg/controller/common/manage_children.go, v4.17.2), creates none of them, writes the
 * other children and the parent's status, and fails the sync, which is retried with backoff. The message is its
 * aggregate of those errors.
 */
final class UnservedKinds extends RuntimeException {
    private final transient List<ChildId> children;

    UnservedKinds(List<ChildId> children) {
        super(message(children));
        this.children = List.copyOf(children);
    }

    List<ChildId> children() {
        return children;
    }

    private static String message(List<ChildId> children) {
        List<String> errors = children.stream().map(child -> child.apiVersion() + " " + child.kind()).distinct()
                .map(kind -> "discovery: can't find kind " + kind.substring(kind.indexOf(' ') + 1) + " in apiVersion "
                        + kind.substring(0, kind.indexOf(' ')))
                .toList();
        return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    }
}
