{{/* The chart's name, and the release's full name (cut to 63 characters, DNS label length). */}}
{{- define "formward.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "formward.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "formward.selectorLabels" -}}
app.kubernetes.io/name: {{ include "formward.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "formward.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "formward.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: formward
{{- end }}

{{/* The label of the metrics Services, which the ServiceMonitor selects them by. */}}
{{- define "formward.metricsServiceLabel" -}}
formward/metrics: "true"
{{- end }}

{{/*
Values that would open what must stay closed fail the render (docs/running.md, Kubernetes):
a hop count or `true` in config.trustProxy with a Service reachable from outside the cluster
lets every client choose its own address (X-Forwarded-For), and with it every per-client
limit; the metrics port never shares the public port.
*/}}
{{- define "formward.checkExposure" -}}
{{- $trust := toString .Values.config.trustProxy | trim | lower -}}
{{- if and (ne .Values.service.type "ClusterIP") (or (eq $trust "true") (regexMatch "^[0-9]+$" $trust)) (not (eq $trust "0")) -}}
{{- fail (printf "config.trustProxy=%q with service.type=%s: clients reach serve without a proxy that sets X-Forwarded-For, so a hop count or true would let each of them pick the address that every per-client limit counts. Set config.trustProxy to the addresses or CIDRs of the load balancer in front (e.g. 10.0.12.0/24; never the node or pod network), or to the empty string when nothing is in front." .Values.config.trustProxy .Values.service.type) -}}
{{- end -}}
{{- if and .Values.metrics.enabled (eq (int .Values.metrics.port) (int .Values.containerPort)) -}}
{{- fail "metrics.port must differ from containerPort: metrics are never served on the public listener" -}}
{{- end -}}
{{- end }}

{{- define "formward.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* One env entry read from an existing Secret: (list name secretName key optional). */}}
{{- define "formward.secretEnv" -}}
- name: {{ index . 0 }}
  valueFrom:
    secretKeyRef:
      name: {{ index . 1 | quote }}
      key: {{ index . 2 | quote }}
{{- end }}

{{/* The environment serve, worker and the migrate Job share (docs/running.md, Environment). */}}
{{- define "formward.env" -}}
{{- $baseUrl := required "set baseUrl to the public https:// URL of Formward (links and e-mails use it)" .Values.baseUrl -}}
- name: NODE_ENV
  value: production
- name: HOST
  value: 0.0.0.0
- name: PORT
  value: {{ .Values.containerPort | quote }}
- name: DATA_DIR
  value: /data
- name: BASE_URL
  value: {{ $baseUrl | quote }}
- name: INGEST_URL
  value: {{ default $baseUrl .Values.ingestUrl | quote }}
- name: TEMPORAL_ADDRESS
  value: {{ required "set temporal.address to the Temporal frontend (host:port)" .Values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ .Values.temporal.namespace | quote }}
- name: TEMPORAL_TASK_QUEUE
  value: {{ .Values.temporal.taskQueue | quote }}
- name: MAIL_FROM
  value: {{ .Values.config.mailFrom | quote }}
- name: LOG_LEVEL
  value: {{ .Values.config.logLevel | quote }}
{{- with .Values.config.trustProxy }}
- name: TRUST_PROXY
  value: {{ . | quote }}
{{- end }}
{{- with .Values.config.fileStorageUrl }}
- name: FILE_STORAGE_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.config.formPagesTarget }}
- name: FORM_PAGES_TARGET
  value: {{ . | quote }}
{{- end }}
{{- if .Values.metrics.enabled }}
- name: METRICS_HOST
  value: 0.0.0.0
- name: METRICS_PORT
  value: {{ .Values.metrics.port | quote }}
{{- end }}
{{- with .Values.secrets }}
{{ include "formward.secretEnv" (list "DATABASE_URL" (required "set secrets.databaseUrl.existingSecret to the Secret holding DATABASE_URL" .databaseUrl.existingSecret) .databaseUrl.key) }}
{{ include "formward.secretEnv" (list "APP_SECRET" (required "set secrets.appSecret.existingSecret to the Secret holding APP_SECRET" .appSecret.existingSecret) .appSecret.key) }}
{{- if .smtpUrl.existingSecret }}
{{ include "formward.secretEnv" (list "SMTP_URL" .smtpUrl.existingSecret .smtpUrl.key) }}
{{- end }}
{{- if .awsCredentials.existingSecret }}
{{ include "formward.secretEnv" (list "AWS_ACCESS_KEY_ID" .awsCredentials.existingSecret .awsCredentials.accessKeyIdKey) }}
{{ include "formward.secretEnv" (list "AWS_SECRET_ACCESS_KEY" .awsCredentials.existingSecret .awsCredentials.secretAccessKeyKey) }}
{{- end }}
{{- end }}
{{- if .Values.oidc.issuer }}
- name: OIDC_ISSUER
  value: {{ .Values.oidc.issuer | quote }}
- name: OIDC_CLIENT_ID
  value: {{ required "set oidc.clientId with oidc.issuer" .Values.oidc.clientId | quote }}
{{- with .Values.oidc.name }}
- name: OIDC_NAME
  value: {{ . | quote }}
{{- end }}
{{ include "formward.secretEnv" (list "OIDC_CLIENT_SECRET" (required "set secrets.oidcClientSecret.existingSecret with oidc.issuer" .Values.secrets.oidcClientSecret.existingSecret) .Values.secrets.oidcClientSecret.key) }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Pod-level settings every Formward pod shares. */}}
{{- define "formward.podCommon" -}}
automountServiceAccountToken: false
{{- with .Values.serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
volumes:
  - name: data
    emptyDir:
      sizeLimit: {{ .Values.dataDir.sizeLimit }}
  - name: tmp
    emptyDir:
      sizeLimit: 64Mi
{{- end }}

{{/* Container-level settings every Formward container shares. */}}
{{- define "formward.containerCommon" -}}
image: {{ include "formward.image" . | quote }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
securityContext:
  {{- toYaml .Values.securityContext | nindent 2 }}
volumeMounts:
  - name: data
    mountPath: /data
  - name: tmp
    mountPath: /tmp
{{- end }}

{{/* Scheduling of one component: (dict "values" .Values.serve). */}}
{{- define "formward.scheduling" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Probes on the app's health endpoints: liveness /healthz, readiness /readyz. */}}
{{- define "formward.probes" -}}
startupProbe:
  httpGet: { path: /healthz, port: http }
  periodSeconds: 2
  failureThreshold: 60
livenessProbe:
  httpGet: { path: /healthz, port: http }
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet: { path: /readyz, port: http }
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 3
{{- end }}
