package dev.metahook.examples.serviceperpod;

import dev.metahook.api.Cleaner;
import dev.metahook.api.Cleanup;
import dev.metahook.api.Context;
import dev.metahook.api.DecoratorController;
import dev.metahook.api.Result;
import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Service per pod of a StatefulSet annotated with {@value #LABEL_ANNOTATION} (the pod label that
 * holds the pod's name) and {@value #PORTS_ANNOTATION} ({@code port:targetPort,...}). Finalize, when
 * the StatefulSet is deleted or loses an annotation, asks for no Services and is done once none is
 * observed. A bad annotation changes nothing: the Services stay as they were.
 */
public final class ServicePerPodDecorator implements DecoratorController<StatefulSet, Object>, Cleaner<StatefulSet, Object> {
    static final String LABEL_ANNOTATION = "service-per-pod-label";
    static final String PORTS_ANNOTATION = "service-per-pod-ports";

    @Override
    public Result<Object> sync(StatefulSet statefulSet, Context context) {
        Map<String, String> annotations = statefulSet.getMetadata().getAnnotations();
        String labelKey = required(annotations, LABEL_ANNOTATION);
        List<ServicePort> ports = ports(required(annotations, PORTS_ANNOTATION));
        String name = statefulSet.getMetadata().getName();
        int replicas = statefulSet.getSpec() == null || statefulSet.getSpec().getReplicas() == null
                ? 1 : statefulSet.getSpec().getReplicas();
        List<Service> services = new ArrayList<>();
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            services.add(new ServiceBuilder()
                    .withNewMetadata().withName(name + "-" + ordinal).addToLabels("app", "service-per-pod").endMetadata()
                    .withNewSpec().addToSelector(labelKey, name + "-" + ordinal).withPorts(ports).endSpec()
                    .build());
        }
        return Result.of(services).deletingUnlisted();
    }

    @Override
    public Cleanup<Object> cleanup(StatefulSet statefulSet, Context context) {
        return context.children().isEmpty() ? Cleanup.done() : Cleanup.inProgress(Result.of().deletingUnlisted());
    }

    /**
     * {@code 80:8080,9090:9090}: a port named {@code port-<port>} per entry, read as the original
     * reads it: split at commas, each entry split at colons, the first two parts the port and the
     * target port (further parts are ignored, so {@code 80:8080:9090} is port 80 to 8080), each a
     * plain decimal number.
     */
    static List<ServicePort> ports(String text) {
        List<ServicePort> ports = new ArrayList<>();
        for (String entry : text.split(",", -1)) {
            String[] parts = entry.split(":", -1);
            if (parts.length < 2) {
                throw badPorts(text, "'" + entry + "' is not port:targetPort");
            }
            int port = number(text, parts[0]);
            ServicePort servicePort = new ServicePort();
            servicePort.setName("port-" + port);
            servicePort.setPort(port);
            servicePort.setTargetPort(new IntOrString(number(text, parts[1])));
            ports.add(servicePort);
        }
        return ports;
    }

    /** A port number: decimal digits only (as Jsonnet's {@code std.parseInt} takes them), from 1 to 65535 (as a Service takes them). */
    private static int number(String text, String part) {
        if (part.matches("[0-9]{1,5}")) {
            int port = Integer.parseInt(part);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        }
        throw badPorts(text, "'" + part + "' is not a port number from 1 to 65535");
    }

    private static TerminalException badPorts(String text, String why) {
        return new TerminalException("InvalidAnnotation", "metadata.annotations." + PORTS_ANNOTATION + " '" + text + "': " + why);
    }

    private static String required(Map<String, String> annotations, String key) {
        String value = annotations == null ? null : annotations.get(key);
        if (value == null || value.isBlank()) {
            throw new TerminalException("InvalidAnnotation", "metadata.annotations." + key + ": is required");
        }
        return value;
    }
}
