{{/* Generated from io.kubeboot.sample.SampleOperatorApplication and src/main/deploy/settings.yaml by io.kubeboot.operator.deploy.DeployManifests: change those, not this file. */}}
{{/* Regenerate: in sample-operator, mvn test -Dtest=GeneratedDeployTests -Ddeploy.update=true */}}

{{/* The JVM options of JAVA_TOOL_OPTIONS: the image's AOT cache or CDS archive, then javaToolOptions */}}
{{- define "sample-operator.javaToolOptions" -}}
{{- $options := list -}}
{{- with $.Values.image.aotCache }}{{ $options = append $options (printf "-XX:AOTCache=%s" .) }}{{ end -}}
{{- with $.Values.image.cds }}{{ $options = append $options (printf "-XX:SharedArchiveFile=%s" .) }}{{ end -}}
{{- with $.Values.javaToolOptions }}{{ $options = append $options . }}{{ end -}}
{{- join " " $options -}}
{{- end }}

{{/* Values the operator cannot run with fail the install */}}
{{- define "sample-operator.checks" -}}
{{- if and (gt (int $.Values.replicas) 1) (not $.Values.leaderElection.enabled) }}
{{- fail "replicas is above 1 but leaderElection.enabled is false: every replica would run the controllers" }}
{{- end }}
{{- if gt (len $.Values.watchNamespaces) 1 }}
{{- fail "watchNamespaces names more than one namespace: the operator watches one (operator.namespace) or all (none)" }}
{{- end }}
{{- if and (not $.Values.webhook.certManager.enabled) (not $.Values.webhook.caBundle) }}
{{- fail "webhook.caBundle must be given when webhook.certManager.enabled is false: the API server would not trust the webhook" }}
{{- end }}
{{- if $.Values.metrics.secure }}
{{- fail "metrics.secure is true but the operator has no metrics filter" }}
{{- end }}
{{- end }}
