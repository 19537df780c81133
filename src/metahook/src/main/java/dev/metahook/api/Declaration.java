package dev.metahook.api;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What Metacontroller is told about a controller beyond its parent type and hooks: the child resources
 * (a decorator's attachments) with their update strategies, the resync period, {@code generateSelector},
 * the hooks' version and the selectors (a composite's parents' labels, a decorator's targets' labels and annotations). The registration is the one place these are written;
 * the CompositeController or DecoratorController manifest is generated from it (see
 * {@code dev.metahook.manifests.Manifests}).
 *
 * <pre>{@code
 * Controllers.builder().composite("webapp", WebApp.class, new WebAppController(),
 *         Declaration.children(Child.of(Deployment.class, Update.IN_PLACE), Child.of(Service.class, Update.IN_PLACE)))
 * }</pre>
 */
public final class Declaration {
    /**
     * The annotation on the generated CompositeController or DecoratorController that {@link #requiresRelated()} writes, and
     * that {@code check} reads from any controller's manifest, whatever language its hooks are written in.
     */
    public static final String REQUIRES_RELATED = "metahook.dev/requires-related";

    private static final Declaration NONE = new Declaration(List.of(), null, null, "v1", null, null, List.of(), Map.of(), Map.of(), false);

    private final List<Child> children;
    private final Duration resync;
    private final Boolean generateSelector;
    private final String hookVersion;
    private final LabelSelector labelSelector;
    private final LabelSelector annotationSelector;
    private final List<String> revisionFieldPaths;
    private final Map<String, String> controllerLabels;
    private final Map<String, String> controllerAnnotations;
    private final boolean requiresRelated;

    private Declaration(List<Child> children, Duration resync, Boolean generateSelector, String hookVersion,
                        LabelSelector labelSelector, LabelSelector annotationSelector, List<String> revisionFieldPaths,
                        Map<String, String> controllerLabels, Map<String, String> controllerAnnotations, boolean requiresRelated) {
        this.children = List.copyOf(children);
        this.resync = resync;
        this.generateSelector = generateSelector;
        this.hookVersion = hookVersion;
        this.labelSelector = labelSelector;
        this.annotationSelector = annotationSelector;
        this.revisionFieldPaths = List.copyOf(revisionFieldPaths);
        this.controllerLabels = Collections.unmodifiableSortedMap(new TreeMap<>(controllerLabels));
        this.controllerAnnotations = Collections.unmodifiableSortedMap(new TreeMap<>(controllerAnnotations));
        this.requiresRelated = requiresRelated;
    }

    /** No children, no resync, v1 hooks (and {@code generateSelector: true} for a composite). */
    public static Declaration none() {
        return NONE;
    }

    /** A composite's child resources, in the order the manifest lists them. */
    public static Declaration children(Child... children) {
        return NONE.with(List.of(children));
    }

    /** A decorator's attachments, in the order the manifest lists them. */
    public static Declaration attachments(Child... attachments) {
        return children(attachments);
    }

    /** Metacontroller calls sync this often even when nothing changed ({@code resyncPeriodSeconds}, whole seconds). */
    public Declaration resync(Duration period) {
        if (period == null || period.isNegative() || period.isZero() || period.getNano() != 0) {
            throw new IllegalArgumentException("resync must be a positive whole number of seconds, got " + period);
        }
        return new Declaration(children, period, generateSelector, hookVersion, labelSelector, annotationSelector, revisionFieldPaths,
                controllerLabels, controllerAnnotations, requiresRelated);
    }

    /**
     * Whether Metacontroller makes the parent's selector from its uid (a composite only; true unless
     * set): false means the parent type has a {@code spec.selector} of its own.
     */
    public Declaration generateSelector(boolean generate) {
        return new Declaration(children, resync, generate, hookVersion, labelSelector, annotationSelector, revisionFieldPaths,
                controllerLabels, controllerAnnotations, requiresRelated);
    }

    /** The wire version of every hook: {@code v1} (the default) or {@code v2}. */
    public Declaration hookVersion(String version) {
        if (!"v1".equals(version) && !"v2".equals(version)) {
            throw new IllegalArgumentException("hookVersion must be v1 or v2, got '" + version + "'");
        }
        return new Declaration(children, resync, generateSelector, version, labelSelector, annotationSelector, revisionFieldPaths,
                controllerLabels, controllerAnnotations, requiresRelated);
    }

    /**
     * A decorator decorates only the targets whose labels match ({@code resources[].labelSelector}); a
     * composite syncs only the parents whose labels match ({@code parentResource.labelSelector},
     * Metacontroller v4.6.0 and later: older releases do not know it and sync every parent). A composite with a
     * finalize hook is called to finalize a parent that stops matching, as a decorator's target is.
     */
    public Declaration labelSelector(LabelSelector selector) {
        return new Declaration(children, resync, generateSelector, hookVersion, selector, annotationSelector, revisionFieldPaths,
                controllerLabels, controllerAnnotations, requiresRelated);
    }

    /** A decorator decorates only the targets whose annotations match (matchLabels and matchExpressions over annotations). */
    public Declaration annotationSelector(LabelSelector selector) {
        return new Declaration(children, resync, generateSelector, hookVersion, labelSelector, selector, revisionFieldPaths,
                controllerLabels, controllerAnnotations, requiresRelated);
    }

    /**
     * The parent fields whose change starts a rolling update of the children that roll
     * ({@code parentResource.revisionHistory.fieldPaths}; a composite only): Metacontroller's default
     * is the whole {@code spec}.
     */
    public Declaration revisionHistory(String... fieldPaths) {
        if (fieldPaths.length == 0) {
            throw new IllegalArgumentException("revisionHistory needs at least one field path, such as spec.template");
        }
        for (String path : fieldPaths) {
            if (path == null || path.isBlank()) {
                throw new IllegalArgumentException("revisionHistory field paths must not be blank");
            }
        }
        return new Declaration(children, resync, generateSelector, hookVersion, labelSelector, annotationSelector, List.of(fieldPaths),
                controllerLabels, controllerAnnotations, requiresRelated);
    }

    /**
     * Labels on the generated CompositeController or DecoratorController itself (not on its parents or children), such as
     * the one a Metacontroller started with {@code --target-label-selector} picks its controllers by. The controller is
     * named {@code NAME-controller}, NAME being the registration's.
     */
    public Declaration controllerLabels(Map<String, String> labels) {
        labels.forEach((key, value) -> {
            Metadata.requireKey("controllerLabels", key);
            if (value == null || !Metadata.LABEL_VALUE.matcher(value).matches()) {
                throw new IllegalArgumentException("controllerLabels: the value of " + key + " is not a label value (at most 63 letters,"
                        + " digits, '-', '_' or '.', starting and ending with a letter or digit), got '" + value + "'");
            }
        });
        return new Declaration(children, resync, generateSelector, hookVersion, labelSelector, annotationSelector, revisionFieldPaths,
                labels, controllerAnnotations, requiresRelated);
    }

    /** Annotations on the generated CompositeController or DecoratorController itself. */
    public Declaration controllerAnnotations(Map<String, String> annotations) {
        annotations.forEach((key, value) -> {
            Metadata.requireKey("controllerAnnotations", key);
            if (value == null) {
                throw new IllegalArgumentException("controllerAnnotations: the value of " + key + " is null");
            }
        });
        return new Declaration(children, resync, generateSelector, hookVersion, labelSelector, annotationSelector, revisionFieldPaths,
                controllerLabels, annotations, requiresRelated);
    }

    /**
     * The controller cannot do its work without the related objects its customize hook selects (a source to copy from,
     * say): {@code check} then reports a customize rule that selected nothing in the whole life ({@code no-related}).
     * Without it, a rule that selects nothing is the parent's normal state and no breach. Only for a controller that
     * implements {@link Customizer}; written as the annotation {@value #REQUIRES_RELATED} {@code "true"} on the
     * generated controller, where Metacontroller ignores it.
     */
    public Declaration requiresRelated() {
        return new Declaration(children, resync, generateSelector, hookVersion, labelSelector, annotationSelector, revisionFieldPaths,
                controllerLabels, controllerAnnotations, true);
    }

    /** Whether {@link #requiresRelated()} was called. */
    public boolean relatedRequired() {
        return requiresRelated;
    }

    public List<Child> childResources() {
        return children;
    }

    public Optional<Duration> resyncPeriod() {
        return Optional.ofNullable(resync);
    }

    /** Whether {@link #generateSelector(boolean)} was called, and with what. */
    public Optional<Boolean> generatesSelector() {
        return Optional.ofNullable(generateSelector);
    }

    public String hookVersion() {
        return hookVersion;
    }

    /** The {@link #labelSelector(LabelSelector)}: of a decorator's targets, or of a composite's parents. */
    public Optional<LabelSelector> targetLabelSelector() {
        return Optional.ofNullable(labelSelector);
    }

    public Optional<LabelSelector> targetAnnotationSelector() {
        return Optional.ofNullable(annotationSelector);
    }

    /** The {@link #revisionHistory(String...)} field paths, empty when not set. */
    public List<String> revisionFieldPaths() {
        return revisionFieldPaths;
    }

    /** The {@link #controllerLabels(Map)}, by key; empty when not set. */
    public Map<String, String> controllerLabels() {
        return controllerLabels;
    }

    /** The {@link #controllerAnnotations(Map)}, by key; empty when not set. */
    public Map<String, String> controllerAnnotations() {
        return controllerAnnotations;
    }

    private Declaration with(List<Child> children) {
        for (int i = 0; i < children.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (children.get(i).apiVersion().equals(children.get(j).apiVersion())
                        && children.get(i).resource().equals(children.get(j).resource())) {
                    throw new IllegalArgumentException("child resource " + children.get(i).apiVersion() + " "
                            + children.get(i).resource() + " is declared twice");
                }
            }
        }
        return new Declaration(children, resync, generateSelector, hookVersion, labelSelector, annotationSelector, revisionFieldPaths,
                controllerLabels, controllerAnnotations, requiresRelated);
    }

    /** Kubernetes' rules for metadata keys and label values. */
    private static final class Metadata {
        private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
        private static final Pattern PREFIX = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
        static final Pattern LABEL_VALUE = Pattern.compile("(" + NAME.pattern() + ")?");

        private Metadata() {
        }

        static void requireKey(String field, String key) {
            int slash = key == null ? -1 : key.lastIndexOf('/');
            String name = slash < 0 ? key : key.substring(slash + 1);
            boolean prefixed = slash < 0 || slash <= 253 && PREFIX.matcher(key.substring(0, slash)).matches();
            if (key == null || !prefixed || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(field + ": '" + key + "' is not a key Kubernetes takes (an optional DNS"
                        + " subdomain and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter"
                        + " or digit)");
            }
        }
    }
}
