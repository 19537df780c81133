package dev.metahook.controllers.webapp;

import dev.metahook.api.TerminalException;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** A WebApp spec checked, with defaults applied; an invalid one is a terminal error saying what to fix. */
record DesiredApp(String image, int replicas, int port, List<EnvVar> env, ResourceRequirements resources) {
    private static final Pattern C_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    static DesiredApp of(WebApp.Spec spec) {
        if (spec == null) {
            throw invalid("spec: is required, with at least spec.image");
        }
        String image = spec.image();
        if (image == null || image.isEmpty()) {
            throw invalid("spec.image: is required");
        }
        if (image.chars().anyMatch(Character::isWhitespace)) {
            throw invalid("spec.image: must not contain whitespace, got \"" + image + "\"");
        }
        int replicas = within("spec.replicas", spec.replicas(), 1, 0, 1000);
        int port = within("spec.port", spec.port(), 8080, 1, 65535);
        List<EnvVar> env = spec.env() == null ? List.of() : spec.env();
        checkEnv(env);
        return new DesiredApp(image, replicas, port, env.stream().map(DesiredApp::asStored).toList(), spec.resources());
    }

    boolean hasResources() {
        return resources != null && (resources.getLimits() != null && !resources.getLimits().isEmpty()
                || resources.getRequests() != null && !resources.getRequests().isEmpty()
                || resources.getClaims() != null && !resources.getClaims().isEmpty());
    }

    private static int within(String field, Integer value, int fallback, int min, int max) {
        int actual = value == null ? fallback : value;
        if (actual < min || actual > max) {
            throw invalid(field + ": must be between " + min + " and " + max + ", got " + actual);
        }
        return actual;
    }

    private static void checkEnv(List<EnvVar> env) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < env.size(); i++) {
            String name = env.get(i) == null ? null : env.get(i).getName();
            if (name == null || !C_IDENTIFIER.matcher(name).matches()) {
                throw invalid("spec.env[" + i + "].name: must be a C identifier, got " + (name == null ? "nothing" : "\"" + name + "\""));
            }
            if (!seen.add(name)) {
                throw invalid("spec.env[" + i + "].name: " + name + " appears twice");
            }
        }
    }

    /**
     * The variable as the API server stores it in a Deployment: an empty {@code value} is left out
     * (the field is {@code omitempty}), so answering it would be a change on every sync.
     */
    private static EnvVar asStored(EnvVar var) {
        return "".equals(var.getValue()) ? new EnvVarBuilder(var).withValue(null).build() : var;
    }

    private static TerminalException invalid(String message) {
        return new TerminalException("InvalidSpec", message);
    }
}
