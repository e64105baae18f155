{{/* The release's base name. */}}
{{- define "spinroom.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object: (dict "root" $ "component" name). */}}
{{- define "spinroom.labels" -}}
{{ include "spinroom.selectorLabels" . }}
app.kubernetes.io/part-of: spinroom
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "spinroom.selectorLabels" -}}
app.kubernetes.io/name: {{ .component }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* An object's name: (dict "root" $ "component" name). */}}
{{- define "spinroom.name" -}}
{{- printf "%s-%s" (include "spinroom.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "spinroom.image" -}}
{{- $img := .root.Values.image -}}
{{- printf "%s/%s%s:%s" $img.registry $img.prefix .component (default .root.Chart.AppVersion $img.tag) -}}
{{- end -}}

{{- define "spinroom.secretName" -}}
{{- default (printf "%s-secrets" (include "spinroom.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "spinroom.kafkaBrokers" -}}
{{- if .Values.inCluster.enabled -}}
{{- printf "%s-kafka:9092" (include "spinroom.fullname" .) -}}
{{- else -}}
{{- .Values.kafka.brokers -}}
{{- end -}}
{{- end -}}

{{/* The Secret key holding a component's DATABASE_URL. */}}
{{- define "spinroom.databaseKey" -}}
{{- printf "DATABASE_URL_%s" (. | upper | replace "-" "_") -}}
{{- end -}}

{{/* Environment every Spinroom process gets: (dict "root" $ "component" name "c" values). */}}
{{- define "spinroom.commonEnv" -}}
- name: LOG_LEVEL
  value: {{ .root.Values.logLevel | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ .component | quote }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "service.namespace=spinroom,k8s.namespace.name=%s%s" .root.Release.Namespace (ternary (printf ",%s" .root.Values.otel.resourceAttributes) "" (ne .root.Values.otel.resourceAttributes "")) | quote }}
{{- if .root.Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .root.Values.otel.endpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: http/protobuf
- name: OTEL_TRACES_SAMPLER
  value: {{ .root.Values.otel.tracesSampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ .root.Values.otel.tracesSamplerArg | quote }}
{{- end }}
- name: METRICS_PORT
  value: {{ .root.Values.metricsPort | quote }}
- name: METRICS_HOST
  value: "0.0.0.0"
{{- if .c.database }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "spinroom.secretName" .root }}
      key: {{ include "spinroom.databaseKey" .component }}
{{- end }}
{{- if .c.redis }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "spinroom.secretName" .root }}
      key: REDIS_URL
{{- end }}
{{- if .c.kafka }}
- name: KAFKA_BROKERS
  value: {{ include "spinroom.kafkaBrokers" .root | quote }}
{{- end }}
{{- range .c.secretEnv }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "spinroom.secretName" $.root }}
      key: {{ . }}
{{- end }}
{{- range .c.optionalSecretEnv }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "spinroom.secretName" $.root }}
      key: {{ . }}
      optional: true
{{- end }}
{{- if .c.webUrlFromIngress }}
- name: WEB_URL
  value: {{ printf "http%s://%s" (ternary "s" "" .root.Values.ingress.tls.enabled) .root.Values.ingress.host | quote }}
# Passkeys (WebAuthn) belong to the site people open: its host and origin.
- name: WEBAUTHN_RP_ID
  value: {{ .root.Values.ingress.host | quote }}
- name: WEBAUTHN_ORIGINS
  value: {{ printf "http%s://%s" (ternary "s" "" .root.Values.ingress.tls.enabled) .root.Values.ingress.host | quote }}
{{- end }}
{{- with .c.imagesVolume }}
- name: USER_IMAGES_DIR
  value: {{ .mountPath | quote }}
{{- end }}
{{- range $peer := .c.peers }}
- name: {{ printf "%s_ADDR" ($peer | upper | replace "-" "_") }}
  value: {{ printf "%s:%d" (include "spinroom.name" (dict "root" $.root "component" $peer)) (int $.root.Values.grpcPort) | quote }}
{{- end }}
{{- range $key, $value := .c.env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}
