package dev.metahook.spring;

import dev.metahook.internal.server.ServiceLinkException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Names the Service behind a hook-server port that holds a Kubernetes service link: {@code METAHOOK_PORT=tcp://IP:80},
 * which a Service named {@code metahook} sets in every pod of its namespace and Boot binds to {@code metahook.port}, or
 * {@code MANAGEMENT_PORT}, which the starter reads when no property sets the port. Ahead of Boot's own analysis of a
 * binding, which names the variable and its value but not where they come from.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
final class ServiceLinkFailureAnalyzer implements FailureAnalyzer {
    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ServiceLinkException link) {
                return analysis(link.cause() + ".", link);
            }
            if (cause instanceof BindException binding && bound(binding) != null) {
                return analysis(bound(binding).cause() + ", and Boot binds it to " + binding.getProperty().getName() + ".", binding);
            }
        }
        return null;
    }

    private static FailureAnalysis analysis(String description, Throwable cause) {
        return new FailureAnalysis(description, "Set enableServiceLinks: false in the pod spec, as the Deployment the manifests goal"
                + " writes does.", cause);
    }

    /** The link a {@code metahook.*} property was bound from, when it came from a variable holding one. */
    private static ServiceLinkException bound(BindException binding) {
        ConfigurationProperty property = binding.getProperty();
        if (property == null || !property.getName().toString().startsWith("metahook.")
                || !(property.getOrigin() instanceof PropertySourceOrigin origin)
                || !(origin.getPropertySource() instanceof SystemEnvironmentPropertySource)) {
            return null;
        }
        String value = String.valueOf(property.getValue());
        return ServiceLinkException.isLink(origin.getPropertyName(), value) ? new ServiceLinkException(origin.getPropertyName(), value) : null;
    }
}
