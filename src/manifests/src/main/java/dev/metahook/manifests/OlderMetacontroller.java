package dev.metahook.manifests;

/**
 * The kustomize component for Metacontroller releases before v4.16, which refuse {@code endpointConfigs}
 * and so cannot send the hook token: the controllers lose {@code endpointConfigs}, the service stops
 * asking for the token, and the NetworkPolicy admits the {@code metacontroller} namespace alone.
 */
final class OlderMetacontroller {
    static final String PATH = "components/before-v4.16/kustomization.yaml";

    private OlderMetacontroller() {
    }

    static String component(ManifestOptions options) {
        return """
                # For Metacontroller releases before v4.16, which refuse `endpointConfigs` and cannot send the hook
                # token (nor a client certificate: `clientTLS` is v4.16 too). Use it from an overlay (docs/deploy.md):
                # the controllers lose `endpointConfigs`, the hook service stops asking for the token, and
                # the NetworkPolicy becomes the only guard of the hook port, which it admits Metacontroller's pods
                # (namespace `METACONTROLLER`) to alone (the scraper keeps the management port only): an
                # unauthenticated hook would answer anyone who can reach it.
                apiVersion: kustomize.config.k8s.io/v1alpha1
                kind: Component
                patches:
                - target:
                    group: metacontroller.k8s.io
                    kind: CompositeController
                  patch: |-
                    - op: remove
                      path: /spec/endpointConfigs
                - target:
                    group: metacontroller.k8s.io
                    kind: DecoratorController
                  patch: |-
                    - op: remove
                      path: /spec/endpointConfigs
                - target:
                    group: apps
                    kind: Deployment
                    name: NAME
                  patch: |-
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata:
                      name: NAME
                    spec:
                      template:
                        spec:
                          containers:
                          - name: NAME
                            env:
                            - name: AUTH_BEARER_TOKEN_FILE
                              $patch: delete
                            volumeMounts:
                            - mountPath: /etc/NAME/hook-token
                              $patch: delete
                          volumes:
                          - name: hook-token
                            $patch: delete
                - target:
                    group: networking.k8s.io
                    kind: NetworkPolicy
                    name: NAME
                  patch: |-
                    - op: replace
                      path: /spec/ingress/0/from
                      value:
                      - namespaceSelector:
                          matchLabels:
                            kubernetes.io/metadata.name: METACONTROLLER
                PODS""".replace("NAME", options.name()).replace("METACONTROLLER", options.metacontroller().namespace())
                .replace("PODS", pods(options.metacontroller()));
    }

    private static String pods(ManifestOptions.Neighbour neighbour) {
        if (neighbour.pods().isEmpty()) {
            return "";
        }
        StringBuilder yaml = new StringBuilder("        podSelector:\n          matchLabels:\n");
        neighbour.pods().forEach((key, value) -> yaml.append("            ").append(quoted(key)).append(": ").append(quoted(value)).append('\n'));
        return yaml.toString();
    }

    private static String quoted(String text) {
        return dev.metahook.internal.wire.Json.object().textNode(text).toString();
    }
}
