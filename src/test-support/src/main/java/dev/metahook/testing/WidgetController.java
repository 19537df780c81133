package dev.metahook.testing;

import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.CompositeController;
import dev.metahook.api.Conditions;
import dev.metahook.api.Context;
import dev.metahook.api.Customizer;
import dev.metahook.api.RelatedRule;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import dev.metahook.api.TransientException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small controller for tests: one ConfigMap per Widget holding its message. A message of
 * {@code retry} is a transient error, {@code boom} a bug; a missing or negative size is an invalid spec.
 * Finalize deletes the ConfigMap, then says done.
 */
public final class WidgetController implements CompositeController<Widget, Map<String, Object>>,
        Cleaner<Widget, Map<String, Object>>, Customizer<Widget> {

    @Override
    public Result<Map<String, Object>> sync(Widget widget, Context context) {
        Widget.Spec spec = widget.getSpec();
        if (spec == null || spec.size == null || spec.size < 0) {
            throw new TerminalException("InvalidSpec", "spec.size: must be a whole number of at least 0");
        }
        if ("retry".equals(spec.message)) {
            throw new TransientException("the message is not there yet", Duration.ofMillis(6500));
        }
        if ("boom".equals(spec.message)) {
            throw new IllegalStateException("boom");
        }
        return Result.of(configMap(widget))
                .deletingUnlisted()
                .withStatus(status(widget, context, "Available"));
    }

    @Override
    public Cleanup<Map<String, Object>> cleanup(Widget widget, Context context) {
        if (context.children().all(ConfigMap.class).isEmpty()) {
            return Cleanup.done().withStatus(Map.of("phase", "Deleted"));
        }
        return Cleanup.inProgress(Result.of().deletingUnlisted().resyncAfter(Duration.ofSeconds(5)))
                .withStatus(Map.of("phase", "Deleting"));
    }

    @Override
    public List<RelatedRule> customize(Widget widget, Context context) {
        return List.of(RelatedRule.named("v1", "secrets", "widget-shared").inNamespace(widget.getMetadata().getNamespace()));
    }

    static ConfigMap configMap(Widget widget) {
        String name = widget.getMetadata().getName();
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("app.kubernetes.io/name", "widget")
                .addToLabels("app.kubernetes.io/instance", name)
                .endMetadata()
                .addToData("message", String.valueOf(widget.getSpec().message))
                .addToData("size", Integer.toString(widget.getSpec().size))
                .build();
    }

    private static Map<String, Object> status(Widget widget, Context context, String reason) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("size", widget.getSpec().size);
        status.put("observedConfigMaps", context.children().all(ConfigMap.class).size());
        status.put("conditions", Conditions.from(widget, context.clock()).set("Ready", true, reason, "the ConfigMap is written").list());
        return status;
    }
}
