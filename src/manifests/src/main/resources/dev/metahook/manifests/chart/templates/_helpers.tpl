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

{{/* The user's variables (env, then extraEnv), none of them one the chart sets from its own values. */}}
{{- define "{name}.userEnv" -}}
{{- $own := list "PORT" "MANAGEMENT_PORT" {secret_env_names}"AUTH_BEARER_TOKEN_FILE" "SHUTDOWN_TIMEOUT_SECONDS" "LOG_FORMAT" "OTEL_SERVICE_NAME" "TLS_CERT_FILE" "TLS_KEY_FILE" "TLS_CLIENT_CA_FILE" }}
{{- if .Values.tracing.endpoint }}{{ $own = append $own "OTEL_EXPORTER_OTLP_ENDPOINT" }}{{ end }}
{{- if .Values.tracing.sampler }}{{ $own = append $own "OTEL_TRACES_SAMPLER" }}{{ end }}
{{- if .Values.tracing.samplerArg }}{{ $own = append $own "OTEL_TRACES_SAMPLER_ARG" }}{{ end }}
{{- range $name, $value := .Values.env }}
{{- if has $name $own }}{{ fail (printf "env.%s: the chart sets this variable itself (tracing.* for the OTEL_ ones); change that value instead" $name) }}{{ end }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- range .Values.extraEnv }}
{{- if or (has .name $own) (hasKey $.Values.env .name) }}{{ fail (printf "extraEnv: %s is set by the chart or by env already" .name) }}{{ end }}
{{- list . | toYaml | nindent 0 }}
{{- end }}
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
