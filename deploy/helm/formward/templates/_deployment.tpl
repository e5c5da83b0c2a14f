{{/* A Deployment of one component: (dict "root" $ "component" "serve"|"worker"). Both run the
     same image with the same environment; `formward worker` answers /healthz and /readyz on
     PORT too (src/runtime/worker-health-server.ts), ready while it polls Temporal. */}}
{{- define "formward.deployment" -}}
{{- $root := .root }}
{{- $component := .component }}
{{- $values := index $root.Values $component }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "formward.fullname" $root }}-{{ $component }}
  labels:
    {{- include "formward.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $component }}
spec:
  replicas: {{ $values.replicas }}
  selector:
    matchLabels:
      {{- include "formward.selectorLabels" $root | nindent 6 }}
      app.kubernetes.io/component: {{ $component }}
  template:
    metadata:
      labels:
        {{- include "formward.labels" $root | nindent 8 }}
        app.kubernetes.io/component: {{ $component }}
        {{- with $values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $values.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      {{- include "formward.podCommon" $root | nindent 6 }}
      {{- with include "formward.scheduling" $values }}
      {{- . | trim | nindent 6 }}
      {{- end }}
      terminationGracePeriodSeconds: {{ $values.terminationGracePeriodSeconds }}
      containers:
        - name: {{ $component }}
          {{- include "formward.containerCommon" $root | nindent 10 }}
          args: [{{ $component | quote }}]
          env:
            {{- include "formward.env" $root | nindent 12 }}
            {{- with $values.env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          ports:
            - name: http
              containerPort: {{ $root.Values.containerPort }}
              protocol: TCP
            {{- if $root.Values.metrics.enabled }}
            - name: metrics
              containerPort: {{ $root.Values.metrics.port }}
              protocol: TCP
            {{- end }}
          {{- include "formward.probes" $root | nindent 10 }}
          {{- with $values.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
{{- end }}

{{/* A PodDisruptionBudget of one component: (dict "root" $ "component" "serve"|"worker"). */}}
{{- define "formward.pdb" -}}
{{- $root := .root }}
{{- $component := .component }}
{{- $pdb := (index $root.Values .component).pdb }}
{{- if $pdb.enabled }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "formward.fullname" $root }}-{{ $component }}
  labels:
    {{- include "formward.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ $component }}
spec:
  {{- if hasKey $pdb "maxUnavailable" }}
  maxUnavailable: {{ $pdb.maxUnavailable }}
  {{- else }}
  minAvailable: {{ $pdb.minAvailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "formward.selectorLabels" $root | nindent 6 }}
      app.kubernetes.io/component: {{ $component }}
{{- end }}
{{- end }}
