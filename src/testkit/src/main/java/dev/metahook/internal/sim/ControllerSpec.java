package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.HookVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CompositeController (or DecoratorController) manifest, read for what the simulator needs: the
 * child (or attachment) types, the hooks, the selector mode; and, when known, the parent's CRD schema
 * ({@code parentSchema}, the {@code openAPIV3Schema} of the parent's version, or null), by which the
 * simulated API server prunes what is written to the parent; and what that API server serves ({@code discovery}: the
 * built-in kinds and the CustomResourceDefinitions given).
 */
public record ControllerSpec(String name, ObjectNode manifest, boolean decorator, boolean generateSelector,
                             List<ChildResource> childResources, Map<String, HookConfig> hooks, JsonNode parentSchema,
                             Discovery discovery) {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    /** One declared child type and how its children are updated. */
    public record ChildResource(String apiVersion, String resource, String updateMethod) {
    }

    /** One hook: where it is, how long Metacontroller waits, its version and whether decoding is strict. */
    public record HookConfig(String url, Duration timeout, HookVersion version, boolean strict) {
    }

    public static ControllerSpec read(JsonNode manifest) {
        String kind = manifest.path("kind").asText();
        if (!kind.equals("CompositeController") && !kind.equals("DecoratorController")) {
            throw new IllegalArgumentException("expected kind CompositeController or DecoratorController, got "
                    + manifest.path("kind").asText("nothing"));
        }
        boolean decorator = kind.equals("DecoratorController");
        JsonNode spec = manifest.path("spec");
        List<ChildResource> children = new ArrayList<>();
        for (JsonNode child : spec.path(decorator ? "attachments" : "childResources")) {
            children.add(new ChildResource(child.path("apiVersion").asText(), child.path("resource").asText(),
                    child.path("updateStrategy").path("method").asText("OnDelete")));
        }
        Map<String, HookConfig> hooks = new LinkedHashMap<>();
        spec.path("hooks").properties().iterator().forEachRemaining(hook -> hooks.put(hook.getKey(), hookConfig(hook.getValue(), manifest, hook.getKey())));
        if (!hooks.containsKey("sync")) {
            throw new IllegalArgumentException("spec.hooks.sync is required");
        }
        return new ControllerSpec(manifest.path("metadata").path("name").asText(), (ObjectNode) manifest, decorator,
                spec.path("generateSelector").asBoolean(false), List.copyOf(children), Map.copyOf(hooks), null, Discovery.of(List.of()));
    }

    /** The same controller with every hook's timeout replaced (check's {@code --timeout}). */
    public ControllerSpec withTimeout(Duration timeout) {
        Map<String, HookConfig> replaced = new LinkedHashMap<>();
        hooks.forEach((hook, config) -> replaced.put(hook, new HookConfig(config.url(), timeout, config.version(), config.strict())));
        return new ControllerSpec(name, manifest, decorator, generateSelector, childResources, Map.copyOf(replaced), parentSchema,
                discovery);
    }

    /**
     * The same controller with the kinds of every CustomResourceDefinition among these objects served, and the parent's
     * schema taken from the first that is the CustomResourceDefinition of a composite's {@code parentResource} (its group
     * and plural) and that serves its version.
     */
    public ControllerSpec withDefinitions(List<? extends JsonNode> objects) {
        ControllerSpec served = new ControllerSpec(name, manifest, decorator, generateSelector, childResources, hooks, parentSchema,
                Discovery.of(objects));
        return decorator ? served : served.withParentSchema(objects);
    }

    private ControllerSpec withParentSchema(List<? extends JsonNode> objects) {
        JsonNode parent = manifest.path("spec").path("parentResource");
        String apiVersion = parent.path("apiVersion").asText();
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        for (JsonNode object : objects) {
            if (!object.path("kind").asText().equals("CustomResourceDefinition")
                    || !object.path("apiVersion").asText().equals("apiextensions.k8s.io/v1")
                    || !object.at("/spec/group").asText().equals(group)
                    || !object.at("/spec/names/plural").asText().equals(parent.path("resource").asText())) {
                continue;
            }
            for (JsonNode served : object.at("/spec/versions")) {
                if (served.path("name").asText().equals(version) && served.at("/schema/openAPIV3Schema").isObject()) {
                    return new ControllerSpec(name, manifest, decorator, generateSelector, childResources, hooks,
                            served.at("/schema/openAPIV3Schema"), discovery);
                }
            }
        }
        return this;
    }

    /**
     * Whether the controller says its customize hook's related objects are required (the annotation
     * {@code metahook.dev/requires-related: "true"} on its manifest): only then is a rule that selects nothing a breach.
     */
    public boolean relatedRequired() {
        return "true".equals(manifest.path("metadata").path("annotations").path(dev.metahook.api.Declaration.REQUIRES_RELATED).asText());
    }

    public boolean hasFinalize() {
        return hooks.containsKey("finalize");
    }

    public String finalizer() {
        return "metacontroller.io/" + (decorator ? "decoratorcontroller-" : "compositecontroller-") + name;
    }

    public String updateMethod(String apiVersion, String resource) {
        return childResources.stream().filter(c -> c.apiVersion().equals(apiVersion) && c.resource().equals(resource))
                .map(ChildResource::updateMethod).findFirst().orElse("OnDelete");
    }

    private static HookConfig hookConfig(JsonNode hook, JsonNode manifest, String name) {
        JsonNode webhook = hook.path("webhook");
        HookVersion version = HookVersion.declared(manifest, name);
        String mode = webhook.path("responseUnMarshallMode").asText(version == HookVersion.V2 ? "strict" : "loose");
        return new HookConfig(url(webhook), duration(webhook.path("timeout").asText("10s")), version, mode.equals("strict"));
    }

    private static String url(JsonNode webhook) {
        if (webhook.hasNonNull("url")) {
            return webhook.get("url").asText();
        }
        JsonNode service = webhook.path("service");
        if (service.isMissingNode() || !webhook.hasNonNull("path")) {
            return null;
        }
        return service.path("protocol").asText("http") + "://" + service.path("name").asText() + "."
                + service.path("namespace").asText() + ":" + service.path("port").asInt(80) + webhook.get("path").asText();
    }

    /** A Go duration such as {@code 10s}, {@code 1m30s} or {@code 500ms}; zero or less means Metacontroller's 10 s. */
    public static Duration duration(String text) {
        Matcher matcher = DURATION.matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (matcher.find() && matcher.start() == end) {
            double amount = Double.parseDouble(matcher.group(1));
            long millis = switch (matcher.group(2)) {
                case "ms" -> 1;
                case "s" -> 1000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            total = total.plusMillis(Math.round(amount * millis));
            end = matcher.end();
        }
        if (end != text.length() || text.isEmpty()) {
            throw new IllegalArgumentException("webhook timeout '" + text + "' is not a duration such as 10s");
        }
        return total.isZero() || total.isNegative() ? Duration.ofSeconds(10) : total;
    }
}
