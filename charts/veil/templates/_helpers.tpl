{{/* Names and labels */}}
{{- define "veil.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 63 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{/*
The name of one of the chart's objects: the full name and a suffix ("realtime", "config", ...),
cut to 63 characters after the suffix is added, as Service names must be DNS labels.
Call with (dict "root" $ "suffix" "realtime").
*/}}
{{- define "veil.name" -}}
{{- printf "%s-%s" (include "veil.fullname" .root) .suffix | trunc 63 | trimSuffix "-" -}}
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
{{- .Values.jwt.existingSecret | default (include "veil.name" (dict "root" . "suffix" "jwt")) -}}
{{- end -}}

{{/* An integer, or a percentage string such as "50%" (PodDisruptionBudget fields). */}}
{{- define "veil.intOrPercent" -}}
{{- if kindIs "string" . }}{{ . | quote }}{{ else }}{{ . | int }}{{ end -}}
{{- end -}}

{{/* "true" when browsers reach Veil over https: config.servedOverHttps when set (TLS ended in front of the ingress), else whether the ingress has TLS. */}}
{{- define "veil.servedOverHttps" -}}
{{- if kindIs "bool" .Values.config.servedOverHttps -}}
{{- .Values.config.servedOverHttps -}}
{{- else -}}
{{- and .Values.ingress.enabled (not (empty .Values.ingress.tls)) -}}
{{- end -}}
{{- end -}}

{{/*
Where browsers reach Veil: with the ingress, its host over https or http as above; without it,
the `kubectl port-forward` that NOTES.txt prints. ALLOWED_ORIGINS and NOTES.txt both use this, so
the page the operator opens is the origin the realtime gateway accepts.
*/}}
{{- define "veil.publicUrl" -}}
{{- if .Values.ingress.enabled -}}
{{- $scheme := ternary "https" "http" (eq (include "veil.servedOverHttps" .) "true") -}}
{{- printf "%s://%s" $scheme (required "ingress.host is required when ingress.enabled=true: --set ingress.host=veil.example.com" .Values.ingress.host) -}}
{{- else -}}
http://localhost:8080
{{- end -}}
{{- end -}}

{{/*
The full name a bundled chart gives its objects, by that chart's own rule (the same in the NATS
chart and in Bitnami's common helpers): its fullnameOverride; else the release name when it
already contains the chart's name (or nameOverride); else "<release>-<name>", cut to 63.
Call with (dict "root" $ "chart" "redis").
*/}}
{{- define "veil.dependencyFullname" -}}
{{- $values := index .root.Values .chart | default dict -}}
{{- if $values.fullnameOverride -}}
{{- $values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .chart $values.nameOverride -}}
{{- if contains $name .root.Release.Name -}}
{{- .root.Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .root.Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
A StatefulSet's pods carry a label "<statefulset name>-<10-character hash>", which must fit in 63
characters: a StatefulSet named longer than 52 characters never gets its pods. The bundled NATS,
Redis and MongoDB (as a replica set) run as StatefulSets named after the release, so a long
release name is stopped here.
*/}}
{{- define "veil.checkStatefulSetName" -}}
{{- if gt (len .name) 52 -}}
{{- fail (printf "the bundled %s would run as the StatefulSet %q, longer than the 52 characters Kubernetes allows for its pods: use a shorter release name or set %s.fullnameOverride" .chart .name .chart) -}}
{{- end -}}
{{- end -}}

{{/* Dependency URLs: the bundled chart's Service, or the external server. */}}
{{- define "veil.natsUrl" -}}
{{- if .Values.nats.enabled -}}
{{- $fullname := include "veil.dependencyFullname" (dict "root" . "chart" "nats") -}}
{{- include "veil.checkStatefulSetName" (dict "chart" "nats" "name" $fullname) -}}
{{- $service := dig "service" "name" "" .Values.nats | default $fullname -}}
nats://{{ $service }}:{{ dig "config" "nats" "port" 4222 .Values.nats | int }}
{{- else -}}
{{- required "externalNats.url is required when nats.enabled=false" .Values.externalNats.url -}}
{{- end -}}
{{- end -}}

{{- define "veil.redisUrl" -}}
{{- if .Values.redis.enabled -}}
{{- $master := printf "%s-master" (include "veil.dependencyFullname" (dict "root" . "chart" "redis")) | trunc 63 | trimSuffix "-" -}}
{{- include "veil.checkStatefulSetName" (dict "chart" "redis" "name" $master) -}}
redis://{{ $master }}:{{ dig "master" "service" "ports" "redis" 6379 .Values.redis | int }}
{{- else -}}
{{- required "externalRedis.url is required when redis.enabled=false" .Values.externalRedis.url -}}
{{- end -}}
{{- end -}}

{{/*
The bundled MongoDB: as a replica set (the default), every member by its name under the headless
Service (the StatefulSet's pods "<fullname>-<i>") and the set's name, so the driver finds the
primary whichever member answers first; standalone, its Service.
*/}}
{{- define "veil.mongodbUrl" -}}
{{- if .Values.mongodb.enabled -}}
{{- $fullname := include "veil.dependencyFullname" (dict "root" . "chart" "mongodb") -}}
{{- $port := dig "service" "ports" "mongodb" 27017 .Values.mongodb | int -}}
{{- if eq (dig "architecture" "standalone" .Values.mongodb) "replicaset" -}}
{{- include "veil.checkStatefulSetName" (dict "chart" "mongodb" "name" $fullname) -}}
{{- $headless := dig "service" "nameOverride" "" .Values.mongodb | default (printf "%s-headless" $fullname) -}}
{{- $members := list -}}
{{- range $i := until (dig "replicaCount" 2 .Values.mongodb | int) -}}
{{- $members = append $members (printf "%s-%d.%s:%d" $fullname $i $headless $port) -}}
{{- end -}}
mongodb://{{ join "," $members }}/?replicaSet={{ dig "replicaSetName" "rs0" .Values.mongodb }}
{{- else -}}
{{- $service := dig "service" "nameOverride" "" .Values.mongodb | default $fullname -}}
mongodb://{{ $service }}:{{ $port }}
{{- end -}}
{{- else -}}
{{- .Values.externalMongodb.url -}}
{{- end -}}
{{- end -}}

{{- define "veil.s3Endpoint" -}}
{{- if .Values.minio.enabled -}}
http://{{ include "veil.dependencyFullname" (dict "root" . "chart" "minio") }}:{{ dig "service" "ports" "api" 9000 .Values.minio | int }}
{{- else -}}
{{- required "externalS3.endpoint is required when minio.enabled=false" .Values.externalS3.endpoint -}}
{{- end -}}
{{- end -}}

{{/* S3 credentials: MinIO's root user, or the external store's keys. Empty ones stop the render: the config refuses to start without them. */}}
{{- define "veil.s3AccessKey" -}}
{{- if .Values.minio.enabled -}}
{{- required "minio.auth.rootUser is required" .Values.minio.auth.rootUser -}}
{{- else -}}
{{- required "externalS3.accessKey is required when minio.enabled=false" .Values.externalS3.accessKey -}}
{{- end -}}
{{- end -}}

{{- define "veil.s3SecretKey" -}}
{{- if .Values.minio.enabled -}}
{{- required "minio.auth.rootPassword is required (8 characters at least): --set minio.auth.rootPassword=\"$(openssl rand -hex 16)\"" .Values.minio.auth.rootPassword -}}
{{- else -}}
{{- required "externalS3.secretKey is required when minio.enabled=false" .Values.externalS3.secretKey -}}
{{- end -}}
{{- end -}}

{{/* TURN_URLS: the existing server's URLs, or the deployed coturn's (UDP and TCP); empty: none. */}}
{{- define "veil.turnUrls" -}}
{{- if .Values.turn.urls -}}
{{- join "," .Values.turn.urls -}}
{{- else if .Values.turn.enabled -}}
{{- $host := required "turn.publicHost is required with turn.enabled" .Values.turn.publicHost -}}
{{- printf "stun:%s:%d,turn:%s:%d?transport=udp,turn:%s:%d?transport=tcp" $host (int .Values.turn.port) $host (int .Values.turn.port) $host (int .Values.turn.port) -}}
{{- end -}}
{{- end -}}
