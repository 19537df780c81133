package dev.metahook.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Helm chart of the same registration as the kustomize directory, with the same objects for the same
 * choices: {@code Chart.yaml}, {@code values.yaml} (whose defaults are the kustomize directory's),
 * {@code crds/} (the CRDs, which Helm installs before the rest), and plain templates. The objects go into
 * the release's namespace; their names are the service's, as the hooks' host name needs.
 *
 * <p>The chart's own files are resources under {@code dev/metahook/manifests/chart/}, copied with the words the
 * registration and the options decide filled in at their {@code {word}}: the service's name, the image, the
 * neighbours, the Secret files. The controllers and the CRDs are written from the registration.
 */
final class Chart {
    static final String DIRECTORY = "chart/";
    private static final String RESOURCES = "chart/";
    /** The chart's files copied from its resources, by path relative to the chart's directory. */
    private static final List<String> COPIED = List.of("Chart.yaml", "values.yaml", "values.schema.json", "templates/_helpers.tpl",
            "templates/NOTES.txt", "templates/namespace.yaml", "templates/serviceaccount.yaml", "templates/deployment.yaml",
            "templates/service.yaml", "templates/poddisruptionbudget.yaml", "templates/horizontalpodautoscaler.yaml",
            "templates/networkpolicy.yaml", "templates/servicemonitor.yaml", "templates/podmonitor.yaml");
    private static final String HEADER = "{{- /* " + Manifests.MARK + " */ -}}\n";
    private static final Pattern SEMVER = Pattern.compile("v?(\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?)");
    private static final Pattern TOKEN = Pattern.compile("\\{([a-z_]+)\\}");

    private Chart() {
    }

    /** The image reference split as the values hold it: {@code repository[:tag][@digest]}. */
    record Image(String repository, String tag, String digest) {
        static Image of(String reference) {
            int at = reference.indexOf('@');
            String digest = at < 0 ? "" : reference.substring(at + 1);
            String named = at < 0 ? reference : reference.substring(0, at);
            int colon = named.lastIndexOf(':');
            boolean tagged = colon > named.lastIndexOf('/');
            return new Image(tagged ? named.substring(0, colon) : named, tagged ? named.substring(colon + 1) : "", digest);
        }
    }

    /** The chart's files, by path relative to the chart's directory. */
    static Map<String, String> files(List<ObjectNode> controllers, Map<String, String> crds, ManifestOptions options) {
        Map<String, String> words = words(controllers, options);
        Map<String, String> files = new LinkedHashMap<>();
        for (String file : COPIED) {
            files.put(file, header(file) + fill(resource(file), words));
        }
        crds.forEach((file, text) -> files.put("crds/" + file, text));
        for (ObjectNode controller : controllers) {
            files.put("templates/" + controller.at("/metadata/name").asText() + ".yaml", controller(controller, options));
        }
        return files;
    }

    /** What fills the {@code {word}}s of the chart's files. */
    private static Map<String, String> words(List<ObjectNode> controllers, ManifestOptions options) {
        Image image = Image.of(options.image());
        Matcher semver = SEMVER.matcher(image.tag());
        List<String> names = controllers.stream().map(c -> c.at("/metadata/name").asText()).toList();
        Map<String, String> words = new LinkedHashMap<>();
        words.put("name", options.name());
        words.put("description", quoted("The hook service " + options.name() + " and its Metacontroller controllers ("
                + String.join(", ", names) + "); Metacontroller v4.16 or newer"));
        words.put("version", semver.matches() ? semver.group(1) : "0.1.0");
        words.put("app_version", image.tag().isEmpty() ? "" : "appVersion: " + quoted(image.tag()) + "\n");
        words.put("repository", quoted(image.repository()));
        words.put("tag", quoted(image.tag()));
        words.put("digest", quoted(image.digest()));
        words.put("metacontroller", options.metacontroller().namespace());
        words.put("metacontroller_pods", flow(options.metacontroller().pods()));
        words.put("monitoring", options.monitoring().namespace());
        words.put("monitoring_pods", flow(options.monitoring().pods()));
        words.put("secrets", secrets(options));
        words.put("secret_env", secretFiles(options, HookService::fileVariable, 8));
        words.put("secret_mounts", secretFiles(options, HookService::fileMount, 8));
        words.put("secret_volumes", secretFiles(options, HookService::fileVolume, 6));
        words.put("secret_env_names", options.secretFiles().stream().map(file -> quoted(file.env()) + " ").collect(Collectors.joining()));
        words.put("service_name", quoted(options.name()));
        return words;
    }

    /** The first line a generated file starts with, in the comment its format has. */
    private static String header(String file) {
        if (file.endsWith(".tpl")) {
            return "{{/* " + Manifests.MARK + " */}}\n\n";
        }
        if (file.endsWith(".json")) {
            return ""; // its "$comment" says it
        }
        return file.startsWith("templates/") ? HEADER : Manifests.HEADER;
    }

    private static String resource(String file) {
        try (InputStream in = Chart.class.getResourceAsStream(RESOURCES + file)) {
            if (in == null) {
                throw new IllegalStateException("the chart's " + file + " is missing from metahook-manifests");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of NOTES.txt that name the Secrets the service reads as files, which must exist before its pods start. */
    private static String secrets(ManifestOptions options) {
        StringBuilder lines = new StringBuilder();
        for (ManifestOptions.SecretFile file : options.secretFiles()) {
            lines.append("The pods start once the Secret ").append(file.secretName()).append(" (key `").append(file.key())
                    .append("`) exists in {{ .Release.Namespace }}.\n");
        }
        return lines.toString();
    }

    /** One list item per Secret file the service reads, as YAML lines indented by {@code indent} spaces. */
    private static String secretFiles(ManifestOptions options, BiFunction<ManifestOptions.SecretFile, ManifestOptions, ObjectNode> item,
            int indent) {
        StringBuilder lines = new StringBuilder();
        options.secretFiles().forEach(file -> lines.append(item(item.apply(file, options), indent)));
        return lines.toString();
    }

    /**
     * A CompositeController or DecoratorController as the kustomize directory holds it, with the hooks' scheme and
     * host and its {@code endpointConfigs} from the values.
     */
    private static String controller(ObjectNode controller, ManifestOptions options) {
        ObjectNode template = controller.deepCopy();
        ((ObjectNode) template.get("spec")).remove("endpointConfigs");
        ObjectNode declared = ((ObjectNode) template.get("metadata")).deepCopy();
        ((ObjectNode) template.get("metadata")).retain("name");
        String metadata = "metadata:\n  name: " + controller.at("/metadata/name").asText() + "\n";
        String yaml = Manifests.yamlOf(template).replace("url: " + options.hookBase() + "/", "url: {{ include \"{name}.hookBase\" . }}/")
                .replace(metadata, metadata + metadataWithValues("labels", declared.path("labels"))
                        + metadataWithValues("annotations", declared.path("annotations")));
        return HEADER + yaml.replace("{name}", options.name())
                + "  {{- with include \"" + options.name() + ".endpointConfigs\" . }}{{ . | nindent 2 }}{{ end }}\n";
    }

    /** The controller's declared labels (or annotations), then those of the values. */
    private static String metadataWithValues(String field, JsonNode declared) {
        if (declared.isMissingNode() || declared.isEmpty()) {
            return fill("""
                      {{- with .Values.{field} }}
                      {field}:
                        {{- toYaml . | nindent 4 }}
                      {{- end }}
                    """, Map.of("field", field));
        }
        return "  " + field + ":\n" + block(declared, 4) + fill("""
                    {{- with .Values.{field} }}
                    {{- toYaml . | nindent 4 }}
                    {{- end }}
                """, Map.of("field", field));
    }

    /** Replaces each {@code {word}} of the template by its text, in one pass (the texts are not read again). */
    static String fill(String template, Map<String, String> texts) {
        Matcher token = TOKEN.matcher(template);
        StringBuilder filled = new StringBuilder();
        while (token.find()) {
            String text = texts.get(token.group(1));
            if (text == null) {
                throw new IllegalStateException("no text for " + token.group() + " in the chart's files");
            }
            token.appendReplacement(filled, Matcher.quoteReplacement(text));
        }
        return token.appendTail(filled).toString();
    }

    /** A node as YAML lines indented by {@code indent} spaces. */
    private static String block(JsonNode node, int indent) {
        StringBuilder lines = new StringBuilder();
        Manifests.yamlOf(node).lines().forEach(line -> lines.append(" ".repeat(indent)).append(line).append('\n'));
        return lines.toString();
    }

    /** One list item as YAML lines indented by {@code indent} spaces. */
    private static String item(JsonNode node, int indent) {
        return block(Json.mapper().createArrayNode().add(node), indent);
    }

    private static String flow(Map<String, String> labels) {
        return labels.isEmpty() ? "{}" : Json.mapper().valueToTree(labels).toString();
    }

    private static String quoted(String text) {
        return Json.object().textNode(text).toString();
    }
}
