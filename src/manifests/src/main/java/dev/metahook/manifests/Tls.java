package dev.metahook.manifests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The opt-in kustomize components for HTTPS on the hook port, for any generated service:
 * {@code components/tls} serves it from the {@code kubernetes.io/tls} Secret {@code NAME-tls} (its
 * {@code tls.crt}, {@code tls.key}, and the signing CA in {@code ca.crt}), moves the Service to 443, points
 * every hook URL at {@code https://} and gives Metacontroller that CA ({@code caBundle});
 * {@code components/client-tls} adds client certificates: the service accepts only callers with a certificate
 * signed by that same CA, and Metacontroller presents the one in {@code NAME-client-tls} ({@code clientTLS}).
 */
final class Tls {
    static final String TLS = "components/tls/kustomization.yaml";
    static final String CLIENT_TLS = "components/client-tls/kustomization.yaml";

    /** A component's head and the start of its patch of the service's Deployment; the container's env entries follow. */
    private static final String DEPLOYMENT_ENV = """
            apiVersion: kustomize.config.k8s.io/v1alpha1
            kind: Component
            patches:
            - target:
                group: apps
                kind: Deployment
                name: {name}
              patch: |-
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: {name}
                spec:
                  template:
                    spec:
                      containers:
                      - name: {name}
                        env:
            """;

    private Tls() {
    }

    /** The Secret whose certificate and key the hook port serves, with the CA that signed them in {@code ca.crt}. */
    static String secret(ManifestOptions options) {
        return options.name() + "-tls";
    }

    /** The Secret with the client certificate and key Metacontroller presents. */
    static String clientSecret(ManifestOptions options) {
        return options.name() + "-client-tls";
    }

    /** Where the TLS Secret is mounted in the container. */
    static String mountPath(ManifestOptions options) {
        return "/etc/" + options.name() + "/tls";
    }

    static String component(List<ObjectNode> controllers, ManifestOptions options) {
        StringBuilder yaml = new StringBuilder("""
                # HTTPS on the hook port (Metacontroller v4.16+, which verifies it with `caBundle`). The certificate and
                # key come from the `kubernetes.io/tls` Secret `{secret}` in {namespace}, with the CA that
                # signed them under `ca.crt`, as cert-manager writes it (docs/deploy.md has a Certificate for it). The
                # service reads the files again when they are renewed in place, with no restart. The probes stay on the
                # plain-HTTP management port. Use it from an overlay; not with before-v4.16.
                """).append(DEPLOYMENT_ENV).append("""
                            - name: TLS_CERT_FILE
                              value: {mount}/tls.crt
                            - name: TLS_KEY_FILE
                              value: {mount}/tls.key
                            volumeMounts:
                            - name: tls
                              mountPath: {mount}
                              readOnly: true
                          volumes:
                          - name: tls
                            secret:
                              secretName: {secret}
                - target:
                    kind: Service
                    name: {name}
                  patch: |-
                    - op: replace
                      path: /spec/ports/0/name
                      value: https
                    - op: replace
                      path: /spec/ports/0/port
                      value: 443
                """);
        for (String kind : kinds(controllers)) {
            yaml.append("""
                    - target:
                        group: metacontroller.k8s.io
                        kind: KIND
                      patch: |-
                        - op: add
                          path: /spec/endpointConfigs/0/caBundle
                          value:
                            secretRef:
                              name: {secret}
                              namespace: {namespace}
                              key: ca.crt
                    """.replace("KIND", kind));
        }
        for (ObjectNode controller : controllers) {
            yaml.append("""
                    - target:
                        group: metacontroller.k8s.io
                        kind: KIND
                        name: CONTROLLER
                      patch: |-
                    """.replace("KIND", controller.path("kind").asText()).replace("CONTROLLER", controller.at("/metadata/name").asText()));
            controller.at("/spec/hooks").properties().forEach(hook -> yaml.append("""
                        - op: replace
                          path: /spec/hooks/HOOK/webhook/url
                          value: URL
                    """.replace("HOOK", hook.getKey()).replace("URL", https(hook.getValue().at("/webhook/url").asText()))));
        }
        return substitute(yaml.toString(), options);
    }

    static String clientComponent(List<ObjectNode> controllers, ManifestOptions options) {
        StringBuilder yaml = new StringBuilder("""
                # Client certificates on the hook port, with components/tls (Metacontroller v4.16+): the service
                # answers only callers whose certificate the CA in `ca.crt` of the Secret `{secret}` signed, and
                # Metacontroller presents the certificate and key of the `kubernetes.io/tls` Secret `{client}`
                # in {namespace} (`clientTLS`). With cert-manager, issue both certificates from the same Issuer
                # (docs/deploy.md). Use it from an overlay, after components/tls.
                """).append(DEPLOYMENT_ENV).append("""
                            - name: TLS_CLIENT_CA_FILE
                              value: {mount}/ca.crt
                """);
        for (String kind : kinds(controllers)) {
            yaml.append("""
                    - target:
                        group: metacontroller.k8s.io
                        kind: KIND
                      patch: |-
                        - op: add
                          path: /spec/endpointConfigs/0/clientTLS
                          value:
                            secretRef:
                              name: {client}
                              namespace: {namespace}
                    """.replace("KIND", kind));
        }
        return substitute(yaml.toString(), options);
    }

    private static List<String> kinds(List<ObjectNode> controllers) {
        return controllers.stream().map(c -> c.path("kind").asText()).distinct().sorted().toList();
    }

    private static String https(String url) {
        if (!url.startsWith("http://")) {
            throw new IllegalStateException("a generated hook URL is not http: " + url);
        }
        return "https://" + url.substring("http://".length());
    }

    private static String substitute(String yaml, ManifestOptions options) {
        return yaml.replace("{client}", clientSecret(options)).replace("{secret}", secret(options)).replace("{mount}", mountPath(options))
                .replace("{namespace}", options.namespace()).replace("{name}", options.name());
    }

}
