{{/* Names and labels */}}
{{- define "veil.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 63 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "veil.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "veil.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "veil.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "veil.jwtSecretName" -}}
{{- .Values.jwt.existingSecret | default (printf "%s-jwt" (include "veil.fullname" .)) -}}
{{- end -}}

{{/* Dependency URLs: the bundled chart's service, or the external one. */}}
{{- define "veil.natsUrl" -}}
{{- if .Values.nats.enabled -}}nats://{{ .Release.Name }}-nats:4222{{- else -}}{{ required "externalNats.url is required when nats.enabled=false" .Values.externalNats.url }}{{- end -}}
{{- end -}}

{{- define "veil.redisUrl" -}}
{{- if .Values.redis.enabled -}}redis://{{ .Release.Name }}-redis-master:6379{{- else -}}{{ required "externalRedis.url is required when redis.enabled=false" .Values.externalRedis.url }}{{- end -}}
{{- end -}}

{{- define "veil.mongodbUrl" -}}
{{- if .Values.mongodb.enabled -}}mongodb://{{ .Release.Name }}-mongodb:27017{{- else -}}{{ .Values.externalMongodb.url }}{{- end -}}
{{- end -}}

{{- define "veil.s3Endpoint" -}}
{{- if .Values.minio.enabled -}}http://{{ .Release.Name }}-minio:9000{{- else -}}{{ required "externalS3.endpoint is required when minio.enabled=false" .Values.externalS3.endpoint }}{{- end -}}
{{- end -}}
