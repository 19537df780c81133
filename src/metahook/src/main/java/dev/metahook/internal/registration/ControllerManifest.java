package dev.metahook.internal.registration;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.Child;
import dev.metahook.api.Controllers.Kind;
import dev.metahook.api.Controllers.Registration;
import dev.metahook.api.Declaration;
import dev.metahook.api.Hook;
import dev.metahook.api.Update;
import dev.metahook.internal.wire.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * The CompositeController or DecoratorController of one registration: what Metacontroller must know of it, its hooks
 * served by the service {@code NAME} in {@code NAMESPACE} at {@code http://NAME.NAMESPACE/CONTROLLER/HOOK} with the
 * bearer token of the Secret {@code NAME-hook-token}. The manifests write it for the cluster, the test kit hands it
 * to the simulator.
 */
public final class ControllerManifest {
    private ControllerManifest() {
    }

    public static ObjectNode of(Registration<?> registration, String service, String namespace) {
        String host = service + "." + namespace;
        boolean composite = registration.kind() == Kind.COMPOSITE;
        Declaration declaration = registration.declaration();
        ObjectNode manifest = Json.object().put("apiVersion", "metacontroller.k8s.io/v1alpha1")
                .put("kind", composite ? "CompositeController" : "DecoratorController");
        ObjectNode metadata = manifest.putObject("metadata").put("name", registration.name() + "-controller");
        if (!declaration.controllerLabels().isEmpty()) {
            declaration.controllerLabels().forEach(metadata.putObject("labels")::put);
        }
        if (!declaration.controllerAnnotations().isEmpty() || declaration.relatedRequired()) {
            ObjectNode annotations = metadata.putObject("annotations");
            declaration.controllerAnnotations().forEach(annotations::put);
            if (declaration.relatedRequired()) {
                annotations.put(Declaration.REQUIRES_RELATED, "true");
            }
        }
        ObjectNode spec = manifest.putObject("spec");
        if (composite) {
            spec.put("generateSelector", declaration.generatesSelector().orElse(true));
        }
        declaration.resyncPeriod().ifPresent(period -> spec.put("resyncPeriodSeconds", period.getSeconds()));
        ObjectNode resource = resource(registration.type());
        if (composite) {
            declaration.targetLabelSelector().ifPresent(selector -> resource.set("labelSelector", selector(selector)));
            if (!declaration.revisionFieldPaths().isEmpty()) {
                ArrayNode paths = resource.putObject("revisionHistory").putArray("fieldPaths");
                declaration.revisionFieldPaths().forEach(paths::add);
            }
            spec.set("parentResource", resource);
        } else {
            declaration.targetLabelSelector().ifPresent(selector -> resource.set("labelSelector", selector(selector)));
            declaration.targetAnnotationSelector().ifPresent(selector -> resource.set("annotationSelector", selector(selector)));
            spec.putArray("resources").add(resource);
        }
        if (!declaration.childResources().isEmpty()) {
            ArrayNode children = spec.putArray(composite ? "childResources" : "attachments");
            declaration.childResources().forEach(child -> children.add(child(child)));
        }
        spec.putArray("endpointConfigs").addObject().put("host", host)
                .putObject("authorization").put("type", "Bearer")
                .putObject("secretRef").put("name", tokenSecret(service)).put("namespace", namespace).put("key", "token");
        ObjectNode hooks = spec.putObject("hooks");
        for (Hook hook : registration.hooks()) {
            ObjectNode entry = hooks.putObject(hook.segment());
            if (!"v1".equals(declaration.hookVersion())) {
                entry.put("version", declaration.hookVersion());
            }
            entry.putObject("webhook").put("url", "http://" + host + "/" + registration.name() + "/" + hook.segment())
                    .put("timeout", "10s");
        }
        return manifest;
    }

    /** The Secret that holds the bearer token Metacontroller sends and the service checks. */
    public static String tokenSecret(String service) {
        return service + "-hook-token";
    }

    private static ObjectNode resource(Class<? extends HasMetadata> type) {
        return Json.object().put("apiVersion", HasMetadata.getApiVersion(type)).put("resource", HasMetadata.getPlural(type));
    }

    private static ObjectNode child(Child child) {
        ObjectNode node = Json.object().put("apiVersion", child.apiVersion()).put("resource", child.resource());
        Update update = child.update();
        ObjectNode strategy = node.putObject("updateStrategy").put("method", update.method());
        if (!update.statusChecks().isEmpty()) {
            ArrayNode conditions = strategy.putObject("statusChecks").putArray("conditions");
            update.statusChecks().forEach(check -> conditions.addObject().put("type", check.type()).put("status", check.status().text()));
        }
        return node;
    }

    private static ObjectNode selector(LabelSelector selector) {
        return (ObjectNode) Json.tree(selector);
    }
}
