#!/usr/bin/env bash
# Starts a throwaway local control plane (etcd + kube-apiserver) and the sample operator against it.
# Ctrl-C stops both and deletes the control plane's data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-control-plane.sh

echo "[sample] building the project (tests skipped)" >&2
mvn -q -B install -DskipTests

work=target/sample-run
mkdir -p "$work"
rm -f "$work/kubeconfig"
mvn -q -B -pl operator-spring-boot-test dependency:build-classpath -Dmdep.outputFile="$PWD/$work/classpath.txt"
java -cp "operator-spring-boot-test/target/classes:$(cat "$work/classpath.txt")" \
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
kubectl create configmap hello --from-literal=greeting=hello >/dev/null
cat >&2 <<MSG
[sample] control plane ready. In another shell:
  export KUBECONFIG=$KUBECONFIG
  kubectl create configmap demo --from-literal=a=1     # the operator logs: Reconciled ConfigMap: configMap=default/demo keys=1
  kubectl run nginx --image=nginx                       # the operator logs: Reconciled pod: pod=default/nginx phase=...
[sample] starting the sample operator (Ctrl-C to stop)
MSG
java -jar sample-operator/target/sample-operator-0.1.0-SNAPSHOT.jar
