package dev.metahook.internal.server;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A port variable that holds a Kubernetes service link rather than a port. Unless a pod spec says
 * {@code enableServiceLinks: false}, Kubernetes sets variables for every Service of the pod's namespace in each of its
 * containers, {@code NAME_PORT=tcp://CLUSTER-IP:PORT} among them (a Service named {@code management} sets
 * {@code MANAGEMENT_PORT}), unless the container sets that variable itself. The error names the Service, so that a
 * pod that fails to start in one namespace and not in another says why.
 */
public final class ServiceLinkException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private static final String SUFFIX = "_PORT";
    /** Kubernetes' value: the protocol in lower case, the cluster IP (IPv6 in brackets), the Service's first port. */
    private static final Pattern VALUE = Pattern.compile("(tcp|udp|sctp)://(\\[[0-9a-fA-F:.]+\\]|[0-9.]+):[0-9]+");

    private final String variable;
    private final String value;

    /** A variable of this name holding this value. */
    public ServiceLinkException(String variable, String value) {
        super(cause(variable, value) + "; set enableServiceLinks: false in the pod spec");
        this.variable = variable;
        this.value = value;
    }

    /** Whether a variable of this name holding this value is one Kubernetes sets for a Service. */
    public static boolean isLink(String variable, String value) {
        return variable.endsWith(SUFFIX) && variable.length() > SUFFIX.length() && VALUE.matcher(value.trim()).matches();
    }

    /** What the value is and where it comes from, without what to do about it. */
    public String cause() {
        return cause(variable, value);
    }

    private static String cause(String variable, String value) {
        return variable + " is '" + value + "', a service link: Kubernetes sets it in every pod of a namespace that has a Service named "
                + service(variable);
    }

    /** The Service that sets the variable: {@code MANAGEMENT_PORT} is the link of {@code management} (a name has no {@code _}). */
    private static String service(String variable) {
        return variable.substring(0, variable.length() - SUFFIX.length()).toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
