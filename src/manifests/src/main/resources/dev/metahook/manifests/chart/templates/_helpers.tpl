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
