package dev.metahook.engine;

import dev.metahook.api.CompositeController;
import dev.metahook.api.DecoratorController;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The controllers a server serves, each under a short name that becomes its route
 * ({@code /webapp/sync}). Which hooks a controller has follows from the methods it overrides.
 */
public final class Controllers {
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private final Map<String, Registration> byName;

    private Controllers(Map<String, Registration> byName) {
        this.byName = Collections.unmodifiableMap(new TreeMap<>(byName));
    }

    public static Builder builder() {
        return new Builder();
    }

    Registration get(String name) {
        return byName.get(name);
    }

    /** The registered names, sorted. */
    public Set<String> names() {
        return byName.keySet();
    }

    /** The hooks the named controller serves, or an empty set when there is no such controller. */
    public Set<Hook> hooks(String name) {
        Registration registration = byName.get(name);
        return registration == null ? Set.of() : registration.hooks();
    }

    /** One registered controller: its name, the type of its parent (or target), its hooks. */
    sealed interface Registration permits CompositeRegistration, DecoratorRegistration {
        String name();

        Class<? extends HasMetadata> parentType();

        Set<Hook> hooks();
    }

    record CompositeRegistration(String name, Class<? extends HasMetadata> parentType,
                                 CompositeController<HasMetadata> controller, Set<Hook> hooks) implements Registration {
    }

    record DecoratorRegistration(String name, Class<? extends HasMetadata> parentType,
                                 DecoratorController<HasMetadata> controller, Set<Hook> hooks) implements Registration {
    }

    public static final class Builder {
        private final Map<String, Registration> byName = new TreeMap<>();

        private Builder() {
        }

        @SuppressWarnings("unchecked")
        public <P extends HasMetadata> Builder composite(String name, Class<P> parentType, CompositeController<P> controller) {
            Set<Hook> hooks = hooks(controller.getClass(), CompositeController.class);
            return add(new CompositeRegistration(name, parentType, (CompositeController<HasMetadata>) controller, hooks));
        }

        @SuppressWarnings("unchecked")
        public <T extends HasMetadata> Builder decorator(String name, Class<T> targetType, DecoratorController<T> controller) {
            Set<Hook> hooks = hooks(controller.getClass(), DecoratorController.class);
            return add(new DecoratorRegistration(name, targetType, (DecoratorController<HasMetadata>) controller, hooks));
        }

        public Controllers build() {
            return new Controllers(byName);
        }

        private Builder add(Registration registration) {
            if (!NAME.matcher(registration.name()).matches()) {
                throw new IllegalArgumentException("controller name '" + registration.name()
                        + "' must be lower-case letters, digits and dashes: it becomes a URL path");
            }
            if (byName.putIfAbsent(registration.name(), registration) != null) {
                throw new IllegalArgumentException("two controllers are named '" + registration.name() + "'");
            }
            return this;
        }

        /** sync always; finalize and customize when the class overrides the interface's default. */
        private static Set<Hook> hooks(Class<?> type, Class<?> api) {
            Set<Hook> hooks = EnumSet.of(Hook.SYNC);
            for (var method : type.getMethods()) {
                if (method.getDeclaringClass() == api || method.isSynthetic() && !method.isBridge()) {
                    continue;
                }
                if (method.getName().equals("finalize") && method.getParameterCount() == 2) {
                    hooks.add(Hook.FINALIZE);
                } else if (method.getName().equals("customize") && method.getParameterCount() == 1) {
                    hooks.add(Hook.CUSTOMIZE);
                }
            }
            return Collections.unmodifiableSet(hooks);
        }
    }
}
