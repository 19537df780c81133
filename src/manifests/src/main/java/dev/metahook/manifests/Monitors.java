package dev.metahook.manifests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The opt-in kustomize components that tell the Prometheus operator to scrape {@code /metrics} on the
 * management port: a ServiceMonitor (through the Service) or a PodMonitor (each pod directly). A
 * cluster without the operator has neither CRD, so neither is among the default resources.
 */
final class Monitors {
    static final String SERVICE_MONITOR = "components/service-monitor/";
    static final String POD_MONITOR = "components/pod-monitor/";
    private static final String INTERVAL = "30s";

    private Monitors() {
    }

    static ObjectNode serviceMonitor(ManifestOptions options) {
        ObjectNode monitor = monitor("ServiceMonitor", options);
        ObjectNode spec = (ObjectNode) monitor.get("spec");
        spec.putArray("endpoints").addObject().put("port", "management").put("path", "/metrics").put("interval", INTERVAL);
        return monitor;
    }

    static ObjectNode podMonitor(ManifestOptions options) {
        ObjectNode monitor = monitor("PodMonitor", options);
        ObjectNode spec = (ObjectNode) monitor.get("spec");
        spec.putArray("podMetricsEndpoints").addObject().put("port", "management").put("path", "/metrics").put("interval", INTERVAL);
        return monitor;
    }

    private static ObjectNode monitor(String kind, ManifestOptions options) {
        ObjectNode monitor = HookService.object("monitoring.coreos.com/v1", kind, options.name(), options.namespace());
        ((ObjectNode) monitor.get("metadata")).putObject("labels").put("app.kubernetes.io/name", options.name());
        ObjectNode spec = monitor.putObject("spec");
        spec.putObject("selector").putObject("matchLabels").put("app.kubernetes.io/name", options.name());
        spec.putObject("namespaceSelector").putArray("matchNames").add(options.namespace());
        return monitor;
    }

    static String component(String kind, String file) {
        return """
                # Opt-in: a KIND for the Prometheus operator (monitoring.coreos.com/v1), scraping /metrics on the
                # management port every INTERVAL. Use it from an overlay (`components:`); a Prometheus that selects
                # monitors by label (`serviceMonitorSelector`, `podMonitorSelector`) needs that label added there
                # (`labels:` in the overlay). Use one of service-monitor and pod-monitor, not both.
                apiVersion: kustomize.config.k8s.io/v1alpha1
                kind: Component
                resources:
                - FILE
                """.replace("KIND", kind).replace("INTERVAL", INTERVAL).replace("FILE", file);
    }
}
