package dev.metahook.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.internal.wire.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Helm chart of the same registration as the kustomize directory, with the same objects for the same
 * choices: {@code Chart.yaml}, {@code values.yaml} (whose defaults are the kustomize directory's),
 * {@code crds/} (the CRDs, which Helm installs before the rest), and plain templates. The objects go into
 * the release's namespace; their names are the service's, as the hooks' host name needs. What no value
 * changes (ports, probes, spread, the Secret files, the controllers) is written from the same Java as the
 * kustomize directory.
 */
final class Chart {
    static final String DIRECTORY = "chart/";
    private static final String HEADER = "{{- /* " + Manifests.HEADER.substring(2).strip() + " */ -}}\n";
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
        Map<String, String> files = new LinkedHashMap<>();
        files.put("Chart.yaml", chartYaml(controllers, options));
        files.put("values.yaml", values(options));
        files.put("values.schema.json", schema());
        crds.forEach((file, text) -> files.put("crds/" + file, text));
        files.put("templates/_helpers.tpl", fill(HELPERS, Map.of("name", options.name())));
        files.put("templates/NOTES.txt", fill(NOTES, Map.of("name", options.name(), "secrets", secrets(options))));
        files.put("templates/namespace.yaml", namespace(options));
        files.put("templates/serviceaccount.yaml", HEADER + head("v1", "ServiceAccount", "", options) + "automountServiceAccountToken: false\n");
        files.put("templates/deployment.yaml", deployment(options));
        files.put("templates/service.yaml", HEADER + head("v1", "Service", "", options) + fill(SERVICE, ports(options)));
        files.put("templates/poddisruptionbudget.yaml", optional("podDisruptionBudget", head("policy/v1", "PodDisruptionBudget", "", options)
                + fill(BUDGET, Map.of("name", options.name()))));
        files.put("templates/horizontalpodautoscaler.yaml", optional("autoscaling", head("autoscaling/v2", "HorizontalPodAutoscaler", "",
                options) + fill(AUTOSCALER, Map.of("name", options.name()))));
        files.put("templates/networkpolicy.yaml", optional("networkPolicy", head("networking.k8s.io/v1", "NetworkPolicy", "", options)
                + fill(NETWORK_POLICY, ports(options))));
        files.put("templates/servicemonitor.yaml", monitor("ServiceMonitor", "serviceMonitor", "endpoints", options));
        files.put("templates/podmonitor.yaml", monitor("PodMonitor", "podMonitor", "podMetricsEndpoints", options));
        for (ObjectNode controller : controllers) {
            files.put("templates/" + controller.at("/metadata/name").asText() + ".yaml", controller(controller, options));
        }
        return files;
    }

    private static String chartYaml(List<ObjectNode> controllers, ManifestOptions options) {
        Image image = Image.of(options.image());
        Matcher semver = SEMVER.matcher(image.tag());
        List<String> names = controllers.stream().map(c -> c.at("/metadata/name").asText()).toList();
        return Manifests.HEADER + fill("""
                apiVersion: v2
                name: {name}
                description: {description}
                type: application
                version: {version}
                {app_version}kubeVersion: ">=1.23.0-0"
                """, Map.of("name", options.name(), "version", semver.matches() ? semver.group(1) : "0.1.0",
                "description", quoted("The hook service " + options.name() + " and its Metacontroller controllers ("
                        + String.join(", ", names) + "); Metacontroller v4.16 or newer"),
                "app_version", image.tag().isEmpty() ? "" : "appVersion: " + quoted(image.tag()) + "\n"));
    }

    private static String values(ManifestOptions options) {
        Image image = Image.of(options.image());
        JsonNode pod = HookService.deployment(options).at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        Map<String, String> values = new LinkedHashMap<>();
        values.put("repository", quoted(image.repository()));
        values.put("tag", quoted(image.tag()));
        values.put("digest", quoted(image.digest()));
        values.put("min_replicas", String.valueOf(HookService.MIN_REPLICAS));
        values.put("max_replicas", String.valueOf(HookService.MAX_REPLICAS));
        values.put("cpu", String.valueOf(HookService.CPU_UTILIZATION));
        values.put("min_available", String.valueOf(HookService.MIN_AVAILABLE));
        values.put("resources", block(container.get("resources"), 2));
        values.put("token", options.tokenSecret());
        values.put("tls", Tls.secret(options));
        values.put("client", Tls.clientSecret(options));
        values.put("metacontroller", options.metacontroller().namespace());
        values.put("metacontroller_pods", flow(options.metacontroller().pods()));
        values.put("monitoring", options.monitoring().namespace());
        values.put("monitoring_pods", flow(options.monitoring().pods()));
        values.put("pod_security", block(pod.get("securityContext"), 2));
        values.put("container_security", block(container.get("securityContext"), 2));
        return Manifests.HEADER + fill(VALUES, values);
    }

    /**
     * The values' JSON schema, which helm checks every install, upgrade, template and lint against: a misspelt
     * value ({@code tls.enable}) or one of the wrong type is an error naming it, not ignored.
     */
    private static String schema() {
        ObjectNode neighbour = closed(Map.of("namespace", type("string").put("pattern", "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"),
                "podLabels", strings()));
        ObjectNode monitor = closed(Map.of("enabled", type("boolean"), "interval", type("string"), "labels", strings()));
        Map<String, ObjectNode> values = new LinkedHashMap<>();
        values.put("image", closed(Map.of("repository", type("string").put("minLength", 1), "tag", type("string"),
                "digest", type("string").put("pattern", "^(|[a-z0-9]+:[a-f0-9]{32,})$"), "pullPolicy",
                type("string").put("pattern", "^(|Always|IfNotPresent|Never)$"))));
        values.put("imagePullSecrets", type("array"));
        values.put("replicas", type("integer").put("minimum", 0));
        values.put("autoscaling", closed(Map.of("enabled", type("boolean"), "minReplicas", type("integer").put("minimum", 1),
                "maxReplicas", type("integer").put("minimum", 1), "targetCPUUtilizationPercentage", type("integer").put("minimum", 1))));
        values.put("podDisruptionBudget", closed(Map.of("enabled", type("boolean"), "minAvailable", type("integer").put("minimum", 0))));
        values.put("resources", type("object"));
        values.put("hookToken", closed(Map.of("enabled", type("boolean"), "secretName", type("string").put("minLength", 1))));
        values.put("tls", closed(Map.of("enabled", type("boolean"), "secretName", type("string").put("minLength", 1),
                "clientAuth", closed(Map.of("enabled", type("boolean"), "secretName", type("string").put("minLength", 1))))));
        values.put("namespace", closed(Map.of("create", type("boolean"))));
        values.put("metacontroller", neighbour);
        values.put("monitoring", neighbour);
        values.put("networkPolicy", closed(Map.of("enabled", type("boolean"))));
        values.put("serviceMonitor", monitor);
        values.put("podMonitor", monitor);
        for (String field : List.of("labels", "annotations", "podLabels", "podAnnotations")) {
            values.put(field, strings());
        }
        values.put("podSecurityContext", type("object"));
        values.put("securityContext", type("object"));
        values.put("global", type("object"));
        ObjectNode schema = closed(values);
        schema.put("$schema", "http://json-schema.org/draft-07/schema#");
        return schema.toPrettyString() + "\n";
    }

    private static ObjectNode type(String type) {
        return Json.object().put("type", type);
    }

    private static ObjectNode strings() {
        ObjectNode map = type("object");
        map.set("additionalProperties", type("string"));
        return map;
    }

    /** An object of these properties and no other, its properties in name order. */
    private static ObjectNode closed(Map<String, ObjectNode> properties) {
        ObjectNode object = type("object");
        ObjectNode named = object.putObject("properties");
        new java.util.TreeMap<>(properties).forEach(named::set);
        object.put("additionalProperties", false);
        return object;
    }

    private static final String VALUES = """
            # The image the hook service runs: repository, then :tag and @digest when set (the digest pins it).
            image:
              repository: {repository}
              tag: {tag}
              digest: {digest}
              pullPolicy: ""
            imagePullSecrets: []

            # Replicas when autoscaling is off; with it, the HorizontalPodAutoscaler owns the count.
            replicas: {min_replicas}
            autoscaling:
              enabled: true
              minReplicas: {min_replicas}
              maxReplicas: {max_replicas}
              targetCPUUtilizationPercentage: {cpu}
            # Keeps this many replicas serving through a drain.
            podDisruptionBudget:
              enabled: true
              minAvailable: {min_available}
            resources:
            {resources}
            # The bearer token Metacontroller sends with every hook call (v4.16 or newer): the key `token` of a
            # Secret you create in the release's namespace. false: for Metacontroller before v4.16, which cannot
            # send it; the NetworkPolicy is then the hook port's only guard.
            hookToken:
              enabled: true
              secretName: {token}

            # HTTPS on the hook port from a kubernetes.io/tls Secret (tls.crt, tls.key and the signing CA in ca.crt,
            # as cert-manager writes it): the Service moves to port 443, the hooks to https://, and Metacontroller
            # verifies with that CA (v4.16 or newer). clientAuth: the service answers only callers whose certificate
            # that CA signed, and Metacontroller presents the one in clientAuth.secretName (tls.crt, tls.key).
            tls:
              enabled: false
              secretName: {tls}
              clientAuth:
                enabled: false
                secretName: {client}

            # A Namespace object for the release's namespace, enforcing the restricted Pod Security profile, for
            # tools that apply the rendered chart (Argo CD, Flux). `helm install --create-namespace` makes one
            # without those labels: leave this false with it.
            namespace:
              create: false

            # Where Metacontroller runs: the NetworkPolicy admits its pods (all of the namespace's when no labels
            # are given, else those with all of them) to the hook port.
            metacontroller:
              namespace: {metacontroller}
              podLabels: {metacontroller_pods}
            # Where the metrics scraper (Prometheus) runs: admitted to the management port (/metrics).
            monitoring:
              namespace: {monitoring}
              podLabels: {monitoring_pods}
            networkPolicy:
              enabled: true

            # For the Prometheus operator: scrape /metrics on the management port through the Service
            # (serviceMonitor) or from the pods (podMonitor); use one. `labels` are those the Prometheus selects
            # monitors by (often `release: <its release>`).
            serviceMonitor:
              enabled: false
              interval: 30s
              labels: {}
            podMonitor:
              enabled: false
              interval: 30s
              labels: {}

            # Added to every object's metadata (labels: not to selectors); podLabels and podAnnotations to the pods.
            labels: {}
            annotations: {}
            podLabels: {}
            podAnnotations: {}
            podSecurityContext:
            {pod_security}securityContext:
            {container_security}""";

    private static final String HELPERS = """
            {{/* Generated by metahook from the controllers' registration: change the Java and generate again. */}}

            {{/* The labels of the hook service's objects: its name, then the extra labels. */}}
            {{- define "{name}.labels" -}}
            app.kubernetes.io/name: {name}
            {{- with .Values.labels }}
            {{ toYaml . }}
            {{- end }}
            {{- end }}

            {{/* repository[:tag][@digest] */}}
            {{- define "{name}.image" -}}
            {{ .Values.image.repository }}{{ with .Values.image.tag }}:{{ . }}{{ end }}{{ with .Values.image.digest }}@{{ . }}{{ end }}
            {{- end }}

            {{/* The hooks' scheme and host: the Service in the release's namespace. */}}
            {{- define "{name}.hookBase" -}}
            {{ if .Values.tls.enabled }}https{{ else }}http{{ end }}://{name}.{{ .Release.Namespace }}
            {{- end }}

            {{/* A neighbour the NetworkPolicy admits: its namespace, and its pods' labels when given. */}}
            {{- define "{name}.peer" -}}
            - namespaceSelector:
                matchLabels:
                  kubernetes.io/metadata.name: {{ .namespace }}
              {{- with .podLabels }}
              podSelector:
                matchLabels:
                  {{- toYaml . | nindent 6 }}
              {{- end }}
            {{- end }}

            {{/* How Metacontroller (v4.16 or newer) calls the hooks: the token, the CA, its client certificate. */}}
            {{- define "{name}.endpointConfigs" -}}
            {{- if and .Values.tls.clientAuth.enabled (not .Values.tls.enabled) }}
            {{- fail "tls.clientAuth.enabled needs tls.enabled: the client CA is the ca.crt of tls.secretName" }}
            {{- end }}
            {{- if or .Values.hookToken.enabled .Values.tls.enabled }}
            endpointConfigs:
            - host: {name}.{{ .Release.Namespace }}
              {{- if .Values.hookToken.enabled }}
              authorization:
                type: Bearer
                secretRef:
                  name: {{ .Values.hookToken.secretName }}
                  namespace: {{ .Release.Namespace }}
                  key: token
              {{- end }}
              {{- if .Values.tls.enabled }}
              caBundle:
                secretRef:
                  name: {{ .Values.tls.secretName }}
                  namespace: {{ .Release.Namespace }}
                  key: ca.crt
              {{- end }}
              {{- if .Values.tls.clientAuth.enabled }}
              clientTLS:
                secretRef:
                  name: {{ .Values.tls.clientAuth.secretName }}
                  namespace: {{ .Release.Namespace }}
              {{- end }}
            {{- end }}
            {{- end }}
            """;

    private static final String NOTES = """
            {name} serves its hooks at {{ include "{name}.hookBase" . }}/CONTROLLER/HOOK.
            {{- if .Values.hookToken.enabled }}
            Metacontroller (v4.16 or newer) sends the token in the Secret {{ .Values.hookToken.secretName }} (key `token`), which
            must exist in {{ .Release.Namespace }}:
              kubectl -n {{ .Release.Namespace }} create secret generic {{ .Values.hookToken.secretName }} --from-literal=token="$(head -c 32 /dev/urandom | base64)"
            {{- end }}
            {{- if .Values.tls.enabled }}
            The hook port serves HTTPS from the kubernetes.io/tls Secret {{ .Values.tls.secretName }} (tls.crt, tls.key, ca.crt).
            {{- end }}
            {secrets}""";

    /** The lines of NOTES.txt that name the Secrets the service reads as files, which must exist before its pods start. */
    private static String secrets(ManifestOptions options) {
        StringBuilder lines = new StringBuilder();
        for (ManifestOptions.SecretFile file : options.secretFiles()) {
            lines.append("The pods start once the Secret ").append(file.secretName()).append(" (key `").append(file.key())
                    .append("`) exists in {{ .Release.Namespace }}.\n");
        }
        return lines.toString();
    }

    private static String namespace(ManifestOptions options) {
        JsonNode labels = HookService.namespace(options).at("/metadata/labels");
        return HEADER + fill("""
                {{- if .Values.namespace.create }}
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: {{ .Release.Namespace }}
                  labels:
                {labels}    {{- with .Values.labels }}
                    {{- toYaml . | nindent 4 }}
                    {{- end }}
                  {{- with .Values.annotations }}
                  annotations:
                    {{- toYaml . | nindent 4 }}
                  {{- end }}
                {{- end }}
                """, Map.of("labels", block(labels, 4)));
    }

    /** A namespaced object's first lines: kind, name, the release's namespace, labels (then {@code more}) and annotations. */
    private static String head(String apiVersion, String kind, String more, ManifestOptions options) {
        return fill("""
                apiVersion: {api}
                kind: {kind}
                metadata:
                  name: {name}
                  namespace: {{ .Release.Namespace }}
                  labels:
                    {{- include "{name}.labels" . | nindent 4 }}
                {more}  {{- with .Values.annotations }}
                  annotations:
                    {{- toYaml . | nindent 4 }}
                  {{- end }}
                """, Map.of("api", apiVersion, "kind", kind, "name", options.name(), "more", more));
    }

    /** The template within {@code VALUE.enabled}. */
    private static String optional(String value, String template) {
        return HEADER + "{{- if .Values." + value + ".enabled }}\n" + template + "{{- end }}\n";
    }

    private static Map<String, String> ports(ManifestOptions options) {
        return Map.of("name", options.name(), "port", String.valueOf(HookService.PORT), "management", String.valueOf(HookService.MANAGEMENT_PORT));
    }

    private static final String SERVICE = """
            spec:
              type: ClusterIP
              selector:
                app.kubernetes.io/name: {name}
              ports:
              - name: {{ if .Values.tls.enabled }}https{{ else }}http{{ end }}
                port: {{ if .Values.tls.enabled }}443{{ else }}80{{ end }}
                targetPort: http
              - name: management
                port: {management}
                targetPort: management
            """;

    private static final String BUDGET = """
            spec:
              minAvailable: {{ .Values.podDisruptionBudget.minAvailable }}
              selector:
                matchLabels:
                  app.kubernetes.io/name: {name}
            """;

    private static final String AUTOSCALER = """
            spec:
              scaleTargetRef:
                apiVersion: apps/v1
                kind: Deployment
                name: {name}
              minReplicas: {{ .Values.autoscaling.minReplicas }}
              maxReplicas: {{ .Values.autoscaling.maxReplicas }}
              metrics:
              - type: Resource
                resource:
                  name: cpu
                  target:
                    type: Utilization
                    averageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}
            """;

    private static final String NETWORK_POLICY = """
            spec:
              podSelector:
                matchLabels:
                  app.kubernetes.io/name: {name}
              policyTypes:
              - Ingress
              ingress:
              - from:
                {{- include "{name}.peer" .Values.metacontroller | nindent 4 }}
                ports:
                - protocol: TCP
                  port: {port}
              - from:
                {{- include "{name}.peer" .Values.monitoring | nindent 4 }}
                ports:
                - protocol: TCP
                  port: {management}
            """;

    private static String monitor(String kind, String value, String endpoints, ManifestOptions options) {
        String labels = fill("""
                    {{- with .Values.{value}.labels }}
                    {{- toYaml . | nindent 4 }}
                    {{- end }}
                """, Map.of("value", value));
        return optional(value, head("monitoring.coreos.com/v1", kind, labels, options) + fill("""
                spec:
                  selector:
                    matchLabels:
                      app.kubernetes.io/name: {name}
                  namespaceSelector:
                    matchNames:
                    - {{ .Release.Namespace }}
                  {endpoints}:
                  - port: management
                    path: /metrics
                    interval: {{ .Values.{value}.interval }}
                """, Map.of("name", options.name(), "endpoints", endpoints, "value", value)));
    }

    private static String deployment(ManifestOptions options) {
        JsonNode pod = HookService.deployment(options).at("/spec/template/spec");
        JsonNode container = pod.at("/containers/0");
        StringBuilder env = new StringBuilder();
        container.get("env").forEach(variable -> env.append(tokenOnly(variable.path("name").asText().equals("AUTH_BEARER_TOKEN_FILE"),
                item(variable, 8))));
        StringBuilder mounts = new StringBuilder();
        container.get("volumeMounts").forEach(mount -> mounts.append(tokenOnly(mount.path("name").asText().equals("hook-token"),
                item(mount, 8))));
        StringBuilder volumes = new StringBuilder();
        for (JsonNode volume : pod.get("volumes")) {
            boolean token = volume.at("/secret/secretName").asText().equals(options.tokenSecret());
            if (token) {
                volume = volume.deepCopy();
                ((ObjectNode) volume.get("secret")).put("secretName", "{{ .Values.hookToken.secretName }}");
            }
            volumes.append(tokenOnly(token, item(volume, 6).replace("\"{{ .Values.hookToken.secretName }}\"", "{{ .Values.hookToken.secretName }}")));
        }
        ObjectNode fixed = container.deepCopy();
        fixed.retain("lifecycle", "startupProbe", "readinessProbe", "livenessProbe");
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("name", options.name());
        parts.put("grace", pod.path("terminationGracePeriodSeconds").asText());
        parts.put("spread", block(pod.get("topologySpreadConstraints"), 6));
        parts.put("ports", block(container.get("ports"), 8));
        parts.put("env", env.toString());
        parts.put("fixed", block(fixed, 8));
        parts.put("mounts", mounts.toString());
        parts.put("volumes", volumes.toString());
        parts.put("tls", Tls.mountPath(options));
        return HEADER + head("apps/v1", "Deployment", "", options) + fill(DEPLOYMENT, parts);
    }

    private static final String DEPLOYMENT = """
            spec:
              {{- if not .Values.autoscaling.enabled }}
              replicas: {{ .Values.replicas }}
              {{- end }}
              selector:
                matchLabels:
                  app.kubernetes.io/name: {name}
              template:
                metadata:
                  labels:
                    app.kubernetes.io/name: {name}
                    {{- with .Values.podLabels }}
                    {{- toYaml . | nindent 8 }}
                    {{- end }}
                  {{- with .Values.podAnnotations }}
                  annotations:
                    {{- toYaml . | nindent 8 }}
                  {{- end }}
                spec:
                  serviceAccountName: {name}
                  automountServiceAccountToken: false
                  terminationGracePeriodSeconds: {grace}
                  {{- with .Values.imagePullSecrets }}
                  imagePullSecrets:
                    {{- toYaml . | nindent 8 }}
                  {{- end }}
                  securityContext:
                    {{- toYaml .Values.podSecurityContext | nindent 8 }}
                  topologySpreadConstraints:
            {spread}      containers:
                  - name: {name}
                    image: {{ include "{name}.image" . }}
                    {{- with .Values.image.pullPolicy }}
                    imagePullPolicy: {{ . }}
                    {{- end }}
                    ports:
            {ports}        env:
            {env}        {{- if .Values.tls.enabled }}
                    - name: TLS_CERT_FILE
                      value: {tls}/tls.crt
                    - name: TLS_KEY_FILE
                      value: {tls}/tls.key
                    {{- end }}
                    {{- if .Values.tls.clientAuth.enabled }}
                    - name: TLS_CLIENT_CA_FILE
                      value: {tls}/ca.crt
                    {{- end }}
            {fixed}        resources:
                      {{- toYaml .Values.resources | nindent 10 }}
                    securityContext:
                      {{- toYaml .Values.securityContext | nindent 10 }}
                    volumeMounts:
            {mounts}        {{- if .Values.tls.enabled }}
                    - name: tls
                      mountPath: {tls}
                      readOnly: true
                    {{- end }}
                  volumes:
            {volumes}      {{- if .Values.tls.enabled }}
                  - name: tls
                    secret:
                      secretName: {{ .Values.tls.secretName }}
                  {{- end }}
            """;

    /** The lines, within {@code hookToken.enabled} when they are the token's. */
    private static String tokenOnly(boolean token, String lines) {
        if (!token) {
            return lines;
        }
        String indent = lines.substring(0, lines.indexOf('-'));
        return indent + "{{- if .Values.hookToken.enabled }}\n" + lines + indent + "{{- end }}\n";
    }

    /**
     * A CompositeController or DecoratorController as the kustomize directory holds it, with the hooks' scheme and
     * host and its {@code endpointConfigs} from the values.
     */
    private static String controller(ObjectNode controller, ManifestOptions options) {
        ObjectNode template = controller.deepCopy();
        ((ObjectNode) template.get("spec")).remove("endpointConfigs");
        String metadata = "metadata:\n  name: " + controller.at("/metadata/name").asText() + "\n";
        String yaml = Manifests.yamlOf(template).replace("url: " + options.hookBase() + "/", "url: {{ include \"{name}.hookBase\" . }}/")
                .replace(metadata, metadata + """
                          {{- with .Values.labels }}
                          labels:
                            {{- toYaml . | nindent 4 }}
                          {{- end }}
                          {{- with .Values.annotations }}
                          annotations:
                            {{- toYaml . | nindent 4 }}
                          {{- end }}
                        """);
        return HEADER + yaml.replace("{name}", options.name())
                + "  {{- with include \"" + options.name() + ".endpointConfigs\" . }}{{ . | nindent 2 }}{{ end }}\n";
    }

    /** Replaces each {@code {token}} of the template by its text, in one pass (the texts are not read again). */
    static String fill(String template, Map<String, String> texts) {
        Matcher token = TOKEN.matcher(template);
        StringBuilder filled = new StringBuilder();
        while (token.find()) {
            String text = texts.get(token.group(1));
            if (text == null) {
                throw new IllegalStateException("no text for " + token.group() + " in the chart's template");
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
