#!/usr/bin/env bash
# Runs every test of the project, integration tests included, against real local control planes:
# the whole suite on the newest supported Kubernetes minor, then the subset below on the oldest.
# Installs what it needs first (kube-apiserver, etcd and kubectl built once per version into a cache,
# and helm, which lints and renders the generated charts). Extra arguments go to both Maven runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/control-plane/versions.env
scripts/install-control-plane.sh "$KUBERNETES_NEWEST" "$KUBERNETES_OLDEST"
# after the control plane: helm shares its Kubernetes modules, which Go has built by then; the tests
# run the helm go.mod pins, not whichever one is on the PATH or cached
OPERATOR_HELM=$(scripts/install-helm.sh)
export OPERATOR_HELM

# install, not only verify: the second run below takes the modules it does not build from there
OPERATOR_TEST_KUBERNETES_VERSION=$KUBERNETES_NEWEST mvn -B install "$@"

# On the oldest supported minor: leader election, the client (CRUD, SSA, status), finalizers,
# webhooks, streaming and paged lists, a sharding smoke test, a fleet of three control planes, the
# sample end to end, and the generated manifests and chart (what Chart.yaml's kubeVersion claims).
oldest_subset=(
  ControlPlaneVersionsIntegrationTests
  LeaderElectionIntegrationTests
  ClientIntegrationTests
  FinalizerIntegrationTests
  WebhookIntegrationTests
  StreamingListIntegrationTests
  PagedListIntegrationTests
  ShardingChaosSmokeIntegrationTests
  FleetIntegrationTests
  StorageBucketEndToEndIntegrationTests
  GeneratedManifestsIntegrationTests
  ChartRbacIntegrationTests
  WebhookSelectorsIntegrationTests
)
echo "[test] the subset on Kubernetes $KUBERNETES_OLDEST: ${oldest_subset[*]}"
subset=$(IFS=,; echo "${oldest_subset[*]}")
OPERATOR_TEST_KUBERNETES_VERSION=$KUBERNETES_OLDEST mvn -B verify \
  -pl operator-spring-boot-test,operator-spring-boot-autoconfigure,operator-deploy-generator,sample-operator,benchmarks-child,benchmarks-josdk,benchmarks \
  -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test="$subset" -Dfailsafe.failIfNoSpecifiedTests=false "$@"
