#!/usr/bin/env bash
# Starts a throwaway local control plane (etcd + kube-apiserver of the newest supported Kubernetes, or
# of KUBERNETES_VERSION) and the sample operator against it.
# Ctrl-C stops the operator first (it releases its Lease), then the rest, and deletes the control plane's data.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/control-plane/versions.env
version=${KUBERNETES_VERSION:-$KUBERNETES_NEWEST}
scripts/install-control-plane.sh --kubectl "$version"
export OPERATOR_TEST_KUBERNETES_VERSION=$version
assets=${OPERATOR_CONTROL_PLANE_DIR:-$HOME/.cache/operator-spring-boot/control-plane}/k8s/$version-linux-$(go env GOARCH)
# the kubectl of the same version, before any other on the PATH
export PATH=$assets:$PATH

echo "[sample] building the project (tests skipped)" >&2
mvn -q -B install -DskipTests

work=target/sample-run
mkdir -p "$work"
rm -f "$work/kubeconfig"
mvn -q -B -pl operator-spring-boot-test dependency:build-classpath -Dmdep.outputFile="$PWD/$work/classpath.txt"
# in a session of its own, so that a Ctrl-C reaches the operator, not etcd and kube-apiserver: the
# operator releases its Lease while the API server still answers, and the EXIT trap stops the rest
setsid java -cp "operator-spring-boot-test/target/classes:$(cat "$work/classpath.txt")" \
  io.kubeboot.operator.test.LocalControlPlane "$work/kubeconfig" >"$work/control-plane.log" 2>&1 &
control_plane=$!
trap 'kill "$control_plane" 2>/dev/null || true; wait "$control_plane" 2>/dev/null || true' EXIT

for _ in $(seq 1 900); do
  [[ -f "$work/kubeconfig" ]] && break
  if ! kill -0 "$control_plane" 2>/dev/null; then
    echo "[sample] the control plane failed to start:" >&2
    tail -40 "$work/control-plane.log" >&2
    exit 1
  fi
  sleep 0.1
done
[[ -f "$work/kubeconfig" ]] || { echo "[sample] the control plane did not start within 90s; see $work/control-plane.log" >&2; exit 1; }

export KUBECONFIG=$PWD/$work/kubeconfig
kubectl version >&2
kubectl apply -f sample-operator/deploy/crd.yaml >/dev/null
kubectl wait --for condition=established --timeout=60s crd/storagebuckets.storage.kubeboot.io >/dev/null
kubectl apply -f sample-operator/examples/buckets.yaml >/dev/null

# The healthy example bucket's endpoint, served locally; the other example points where nothing listens.
if ! command -v python3 >/dev/null; then
  echo "[sample] installing python3 to serve the example bucket's endpoint" >&2
  sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq python3 >/dev/null
fi
mkdir -p "$work/bucket-endpoint" && echo ok >"$work/bucket-endpoint/healthy-bucket"
python3 -m http.server 18080 --bind 127.0.0.1 --directory "$work/bucket-endpoint" >"$work/bucket-endpoint.log" 2>&1 &
endpoint=$!
trap 'kill "$endpoint" "$control_plane" 2>/dev/null || true; wait "$control_plane" 2>/dev/null || true' EXIT

cat >&2 <<MSG
[sample] control plane ready, StorageBucket CRD and two example buckets applied. In another shell:
  export KUBECONFIG=$KUBECONFIG
  kubectl get storagebuckets                       # healthy-bucket True, unreachable-bucket False
  rm $PWD/$work/bucket-endpoint/healthy-bucket     # within one probe interval (30s): False, with a Warning Event
  echo ok > $PWD/$work/bucket-endpoint/healthy-bucket   # and back to True
  kubectl describe storagebucket healthy-bucket
  curl -s localhost:8081/actuator/prometheus | grep '^storagebucket_'   # Actuator: the management port
  curl -s localhost:8080/readyz; curl -s localhost:8081/actuator/operator
  kubectl run nginx --image=nginx                  # the operator logs: Reconciled pod: pod=default/nginx phase=Pending
  kubectl apply -f - <<<'{"apiVersion": "storage.kubeboot.io/v1alpha1", "kind": "StorageBucket",
    "metadata": {"name": "secret"}, "spec": {"bucketName": "secret", "endpoint": "https://me:pw@example.com"}}'
                                                   # refused by the validating webhook: credentials in spec.endpoint
[sample] starting the sample operator (Ctrl-C to stop)
MSG
# The webhooks are served with a certificate generated at start-up (no cert-manager here) and registered
# with the local API server by URL, as deploy/webhook.yaml does by Service in a cluster, once the operator
# serves them.
register_webhooks() {
  for _ in $(seq 1 600); do
    grep -q "Webhook server started" "$work/operator.log" 2>/dev/null && break
    sleep 0.1
  done
  if ! grep -q "Webhook server started" "$work/operator.log" 2>/dev/null; then
    echo "[sample] the operator served no webhooks within 60s: none registered" >&2
    return 1
  fi
  ca_bundle=$(sed -n 's/.*Webhook server uses a self-signed certificate.* caBundle=\([^ ]*\).*/\1/p' "$work/operator.log" | head -1)
  for type in validating mutating; do
    if [[ $type == validating ]]; then kind=ValidatingWebhookConfiguration; path=validate; policy=Fail
    else kind=MutatingWebhookConfiguration; path=mutate; policy=Ignore; fi
    kubectl apply -f - >/dev/null <<YAML
apiVersion: admissionregistration.k8s.io/v1
kind: $kind
metadata:
  name: sample-operator
webhooks:
  - name: ${path:0:1}storagebucket.storage.kubeboot.io
    clientConfig:
      url: https://127.0.0.1:9443/$path-storage-kubeboot-io-v1alpha1-storagebucket
      caBundle: $ca_bundle
    rules:
      - apiGroups: ["storage.kubeboot.io"]
        apiVersions: ["v1alpha1"]
        resources: ["storagebuckets"]
        operations: ["CREATE", "UPDATE"]
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: $policy
    timeoutSeconds: 10
YAML
  done
  echo "[sample] admission webhooks registered with the local API server" >&2
}
rm -f "$work/operator.log"
register_webhooks &
webhooks=$!
trap 'kill "$webhooks" "$endpoint" "$control_plane" 2>/dev/null || true; wait "$control_plane" 2>/dev/null || true' EXIT
# The operator runs in the foreground, so that Ctrl-C stops it (the endpoint ignores it as a background
# job); tee -i outlives the Ctrl-C, to keep what the operator logs while it stops. The example buckets
# are on 127.0.0.1, which the sample probes only when allowed to; the demo Pod logger is off unless
# asked for.
java -jar sample-operator/target/sample-operator-0.1.0-SNAPSHOT.jar --operator.webhook.self-signed=true \
  --operator.webhook.bind-address=127.0.0.1 --sample.buckets.allow-private-endpoints=true \
  --sample.pod-logger.enabled=true 2>&1 | tee -i "$work/operator.log"
