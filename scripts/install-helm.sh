#!/usr/bin/env bash
# Builds helm from its published Go module, at the version scripts/helm/go.mod pins, for the tests
# that lint and render the generated Helm charts (the sample's GeneratedManifestsIntegrationTests and
# ChartRbacIntegrationTests), and prints the binary's path (scripts/test.sh exports it as OPERATOR_HELM,
# so the tests run this helm and no other).
#
#   export OPERATOR_HELM=$(scripts/install-helm.sh)
#
# Built from source because the machines that build this project reach the Go module proxy but no
# download site of release binaries; go.sum pins every module of the build, which is as reproducible as a
# release binary checked against its SHA-256, at the cost of a few minutes of CPU once per machine.
# scripts/helm is a small main module that requires helm.sh/helm/v4 as a tool. The binary lands in
# $OPERATOR_HELM_DIR/<version>-<os>-<arch>-<go.sum hash>/helm (default ~/.cache/operator-spring-boot/helm),
# and is not built again while it is there: a change of go.mod or go.sum (a dependency bumped at the same
# helm version) builds anew. The Go build cache and module cache are Go's own (go env GOCACHE
# GOMODCACHE); with the control plane's Kubernetes modules cached already, the build takes a few minutes.
#
# To move to another version: cd scripts/helm && go get -tool helm.sh/helm/v4/cmd/helm@vX.Y.Z &&
# go mod tidy (go list -m -versions helm.sh/helm/v4 lists those the Go module proxy serves).
set -euo pipefail
cd "$(dirname "$0")/.."

dest=${OPERATOR_HELM_DIR:-$HOME/.cache/operator-spring-boot/helm}
log() { echo "[helm] $*" >&2; }
die() { log "$*"; exit 1; }

command -v go >/dev/null || die "go is not on the PATH; a Go toolchain (1.26 or newer) builds helm"
export GOFLAGS=-mod=readonly GOTOOLCHAIN=local CGO_ENABLED=0
version=$(sed -n 's|^[[:space:]]*helm\.sh/helm/v4 \(v[0-9.]*\).*$|\1|p' scripts/helm/go.mod)
[[ -n $version ]] || die "scripts/helm/go.mod requires no helm.sh/helm/v4"
pins=$(cat scripts/helm/go.mod scripts/helm/go.sum | sha256sum | cut -c1-12)
target="$dest/$version-$(go env GOOS)-$(go env GOARCH)-$pins"
if [[ -x "$target/helm" ]]; then
  log "helm $version cached in $target"
  echo "$target/helm"
  exit 0
fi
started=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log "building helm $version from its Go module"
ldflags="-s -w -X helm.sh/helm/v4/internal/version.version=$version -X helm.sh/helm/v4/internal/version.gitTreeState=clean"
(cd scripts/helm && go build -trimpath -ldflags "$ldflags" -o "$work/helm" helm.sh/helm/v4/cmd/helm >"$work/build.log" 2>&1) ||
  { tail -30 "$work/build.log" >&2; exit 1; }
mkdir -p "$target"
install -m 0755 "$work/helm" "$target/"
cp scripts/helm/go.mod scripts/helm/go.sum "$target/"
log "installed helm $version into $target in $((SECONDS - started)) s"
"$target/helm" version --short >&2
echo "$target/helm"
