{{/* Generated from io.kubeboot.sample.fleet.SampleFleetOperatorApplication and src/main/deploy/settings.yaml by io.kubeboot.operator.deploy.DeployManifests: change those, not this file. */}}
{{/* Regenerate: in sample-fleet-operator, mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true */}}

{{/* The operator's name, or nameOverride: the label app.kubernetes.io/name */}}
{{- define "sample-fleet-operator.name" -}}
{{- default "sample-fleet-operator" $.Values.nameOverride | trunc 40 | trimSuffix "-" }}
{{- end }}

{{/* The name of the release's objects: fullnameOverride, else the release's name, followed by the operator's unless it holds it; at most 40 characters, so that the suffixed names fit */}}
{{- define "sample-fleet-operator.fullname" -}}
{{- if $.Values.fullnameOverride }}
{{- $.Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default "sample-fleet-operator" $.Values.nameOverride }}
{{- if contains $name $.Release.Name }}
{{- $.Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" $.Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The name of the release's cluster-scoped objects, and of those in other namespaces: the full name, and the release's namespace unless it is sample-fleet-operator, so that releases of one name in two namespaces do not collide */}}
{{- define "sample-fleet-operator.clusterName" -}}
{{- if eq $.Release.Namespace "sample-fleet-operator" }}
{{- include "sample-fleet-operator.fullname" $ }}
{{- else }}
{{- printf "%s-%s" (include "sample-fleet-operator.fullname" $) $.Release.Namespace }}
{{- end }}
{{- end }}

{{/* The ServiceAccount the pods run as */}}
{{- define "sample-fleet-operator.serviceAccountName" -}}
{{- default (include "sample-fleet-operator.fullname" $) $.Values.serviceAccount.name }}
{{- end }}

{{/* The label helm.sh/chart */}}
{{- define "sample-fleet-operator.chart" -}}
{{- printf "%s-%s" $.Chart.Name $.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The JVM options of JAVA_TOOL_OPTIONS: the image's AOT cache or CDS archive, then javaToolOptions */}}
{{- define "sample-fleet-operator.javaToolOptions" -}}
{{- $options := list -}}
{{- with $.Values.image.aotCache }}{{ $options = append $options (printf "-XX:AOTCache=%s" .) }}{{ end -}}
{{- with $.Values.image.cds }}{{ $options = append $options (printf "-XX:SharedArchiveFile=%s" .) }}{{ end -}}
{{- with $.Values.javaToolOptions }}{{ $options = append $options . }}{{ end -}}
{{- join " " $options -}}
{{- end }}

{{/* Values the operator cannot run with fail the install */}}
{{- define "sample-fleet-operator.checks" -}}
{{- if and (gt (int $.Values.replicas) 1) (not $.Values.leaderElection.enabled) }}
{{- fail "replicas is above 1 but leaderElection.enabled is false: every replica would run the controllers" }}
{{- end }}
{{- if and (not $.Values.serviceAccount.create) (not $.Values.serviceAccount.name) }}
{{- fail "serviceAccount.name must name the ServiceAccount to run as when serviceAccount.create is false" }}
{{- end }}
{{- if and $.Values.metrics.scraper.serviceAccount.name (not $.Values.metrics.scraper.serviceAccount.namespace) }}
{{- fail "metrics.scraper.serviceAccount.namespace must be given with metrics.scraper.serviceAccount.name: a ServiceAccount is bound in its namespace" }}
{{- end }}
{{- if not $.Values.metrics.serviceMonitor.tokenSecret.key }}
{{- fail "metrics.serviceMonitor.tokenSecret.key must name the Secret's key of the token" }}
{{- end }}
{{- range $.Values.env }}
{{- if or (has .name (list "SERVER_PORT" "MANAGEMENT_SERVER_PORT" "OPERATOR_NAMESPACE" "OPERATOR_NAMESPACES" "OPERATOR_LEADERELECTION_ENABLED" "OPERATOR_LEADERELECTION_LEASENAME" "OPERATOR_METRICS_AUTH_ENABLED" "JAVA_TOOL_OPTIONS")) (hasPrefix "OPERATOR_WEBHOOK_" .name) }}
{{- fail (printf "env names %s, which the chart derives (from the values or the application's properties the chart was generated for): set the value or the property instead" .name) }}
{{- end }}
{{- end }}
{{- end }}
