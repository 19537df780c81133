package dev.metahook.api;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * The controllers a server serves, each under a short name that becomes its routes
 * ({@code /webapp/sync}). Which hooks a controller has follows from the interfaces it implements:
 * sync always, finalize for a {@link Cleaner} (a decorator's may be a {@link DecoratorCleaner}),
 * customize for a {@link Customizer}. What else Metacontroller must know (the child resources and their update strategies, resync, selectors) is
 * the registration's {@link Declaration}, from which the manifests are generated.
 */
public final class Controllers {
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private final Map<String, Registration<?>> byName;

    private Controllers(Map<String, Registration<?>> byName) {
        this.byName = Collections.unmodifiableMap(new TreeMap<>(byName));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The registered names, sorted. */
    public Set<String> names() {
        return byName.keySet();
    }

    public Optional<Registration<?>> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The hooks the named controller serves, or an empty set when there is no such controller. */
    public Set<Hook> hooks(String name) {
        return get(name).map(Registration::hooks).orElse(Set.of());
    }

    /** Whether a controller serves a composite parent or decorates a target. */
    public enum Kind { COMPOSITE, DECORATOR }

    /**
     * One registered controller: its name, kind, {@code type} (the parent type of a composite, the
     * target type of a decorator), and the object that implements it. {@code sync} is the controller
     * itself; the other hooks are capabilities, each taken at registration as a call on {@code P}. {@code
     * declaration} is what Metacontroller is told besides (children, resync, selectors): the source of the
     * generated manifests. Made by {@link Builder}.
     *
     * @param <P> the parent (target) type every hook of the controller is called with
     */
    public static final class Registration<P extends HasMetadata> {
        private final String name;
        private final Kind kind;
        private final Class<P> type;
        private final Object controller;
        private final BiFunction<P, Context, HookResult<?>> sync;
        private final Declaration declaration;

        private Registration(String name, Kind kind, Class<P> type, Object controller, BiFunction<P, Context, HookResult<?>> sync,
                             Declaration declaration) {
            this.name = name;
            this.kind = kind;
            this.type = type;
            this.controller = controller;
            this.sync = sync;
            this.declaration = declaration;
        }

        public String name() {
            return name;
        }

        public Kind kind() {
            return kind;
        }

        public Class<P> type() {
            return type;
        }

        /** The object registered: the controller and whichever capabilities it implements. */
        public Object controller() {
            return controller;
        }

        public Declaration declaration() {
            return declaration;
        }

        /** The controller's sync: a composite's {@link Result}, or a decorator's {@link HookResult}. */
        public HookResult<?> sync(P parent, Context context) {
            return sync.apply(parent, context);
        }

        /** Its finalize hook, when it is a {@link Cleaner}. */
        public Optional<Cleaner<? super P, ?>> cleaner() {
            return Capabilities.of(controller, Cleaner.class);
        }

        /** A decorator's finalize hook that may change the target's labels and annotations. */
        public Optional<DecoratorCleaner<? super P, ?>> decoratorCleaner() {
            return Capabilities.of(controller, DecoratorCleaner.class);
        }

        /** Its customize hook, when it is a {@link Customizer}. */
        public Optional<Customizer<? super P>> customizer() {
            return Capabilities.of(controller, Customizer.class);
        }

        /** Its own stalled status, when it is a {@link StalledHandler}. */
        public Optional<StalledHandler<? super P, ?>> stalledHandler() {
            return Capabilities.of(controller, StalledHandler.class);
        }

        public Set<Hook> hooks() {
            Set<Hook> hooks = EnumSet.of(Hook.SYNC);
            if (controller instanceof Cleaner<?, ?> || controller instanceof DecoratorCleaner<?, ?>) {
                hooks.add(Hook.FINALIZE);
            }
            if (controller instanceof Customizer<?>) {
                hooks.add(Hook.CUSTOMIZE);
            }
            return Collections.unmodifiableSet(hooks);
        }

        @Override
        public String toString() {
            return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + name + " of " + type.getName();
        }
    }

    public static final class Builder {
        private final Map<String, Registration<?>> byName = new TreeMap<>();

        private Builder() {
        }

        /**
         * Serves a CompositeController's hooks under {@code /<name>/...}; it declares no child resources.
         * {@code S}, the status type, is inferred, from a lambda's {@code Result} too.
         *
         * @throws IllegalArgumentException when the parent type lacks {@code @Group} or {@code @Version}
         */
        public <P extends HasMetadata, S> Builder composite(String name, Class<P> parentType, CompositeController<P, S> controller) {
            return composite(name, parentType, controller, Declaration.none());
        }

        /** Serves a CompositeController's hooks under {@code /<name>/...}, with its child resources and settings. */
        public <P extends HasMetadata, S> Builder composite(String name, Class<P> parentType, CompositeController<P, S> controller,
                                                            Declaration declaration) {
            return add(new Registration<>(name, Kind.COMPOSITE, parentType, controller, controller == null ? null : controller::sync,
                    declaration));
        }

        /**
         * Serves a DecoratorController's hooks under {@code /<name>/...}; it declares no attachments.
         *
         * @throws IllegalArgumentException when the target type lacks {@code @Group} or {@code @Version}
         */
        public <T extends HasMetadata, S> Builder decorator(String name, Class<T> targetType, DecoratorController<T, S> controller) {
            return decorator(name, targetType, controller, Declaration.none());
        }

        /** Serves a DecoratorController's hooks under {@code /<name>/...}, with its attachments, selectors and settings. */
        public <T extends HasMetadata, S> Builder decorator(String name, Class<T> targetType, DecoratorController<T, S> controller,
                                                            Declaration declaration) {
            return add(new Registration<>(name, Kind.DECORATOR, targetType, controller, controller == null ? null : controller::sync,
                    declaration));
        }

        public Controllers build() {
            return new Controllers(byName);
        }

        private Builder add(Registration<?> registration) {
            if (registration.controller() == null || registration.type() == null) {
                throw new IllegalArgumentException("controller " + registration.name() + ": the controller and its type are required");
            }
            if (registration.declaration() == null) {
                throw new IllegalArgumentException("controller " + registration.name() + ": the declaration is required (Declaration.none() for none)");
            }
            Declaration declaration = registration.declaration();
            if (registration.kind() == Kind.DECORATOR && declaration.generatesSelector().isPresent()) {
                throw new IllegalArgumentException("controller " + registration.name()
                        + ": generateSelector is a CompositeController setting; a decorator selects with labelSelector or annotationSelector");
            }
            if (registration.kind() == Kind.DECORATOR && !declaration.revisionFieldPaths().isEmpty()) {
                throw new IllegalArgumentException("controller " + registration.name()
                        + ": revisionHistory is a CompositeController setting; a decorator's attachments do not roll");
            }
            if (registration.kind() == Kind.COMPOSITE && registration.controller() instanceof DecoratorCleaner<?, ?>) {
                throw new IllegalArgumentException("controller " + registration.name() + ": a CompositeController's cleanup must be a"
                        + " Cleaner answering a Cleanup; a DecoratorCleaner's may change the target's labels and annotations, which"
                        + " Metacontroller's composite response has no fields for");
            }
            if (registration.kind() == Kind.COMPOSITE && declaration.targetAnnotationSelector().isPresent()) {
                throw new IllegalArgumentException("controller " + registration.name()
                        + ": annotationSelector is a DecoratorController setting; a composite selects its parents by labelSelector"
                        + " (parentResource.labelSelector, Metacontroller v4.6.0 and later)");
            }
            if (declaration.relatedRequired() && !(registration.controller() instanceof Customizer<?>)) {
                throw new IllegalArgumentException("controller " + registration.name() + ": requiresRelated says the related objects"
                        + " its customize hook selects are required, but it has no customize hook: implement Customizer");
            }
            if (!NAME.matcher(registration.name()).matches()) {
                throw new IllegalArgumentException("controller name '" + registration.name()
                        + "' must be lower-case letters, digits and dashes: it becomes a URL path");
            }
            apiVersionOf(registration);
            Capabilities.check(registration.name(), registration.controller(), registration.type());
            if (byName.putIfAbsent(registration.name(), registration) != null) {
                throw new IllegalArgumentException("two controllers are named '" + registration.name() + "'");
            }
            return this;
        }

        /**
         * The type says which apiVersion Metacontroller sends, through fabric8's annotations; without
         * them every call would be refused as the wrong kind. GenericKubernetesResource takes any.
         */
        private static void apiVersionOf(Registration<?> registration) {
            Class<?> type = registration.type();
            if (type == GenericKubernetesResource.class) {
                return;
            }
            boolean group = type.isAnnotationPresent(Group.class);
            boolean version = type.isAnnotationPresent(Version.class);
            if (!group || !version) {
                throw new IllegalArgumentException("controller " + registration.name() + ": " + type.getName() + " has no "
                        + (group ? "@Version" : version ? "@Group" : "@Group or @Version")
                        + "; annotate it with @Group(\"example.com\") and @Version(\"v1\") from io.fabric8.kubernetes.model.annotation"
                        + " (its CRD's group and version), so that the apiVersion Metacontroller sends for it is known");
            }
        }
    }
}
