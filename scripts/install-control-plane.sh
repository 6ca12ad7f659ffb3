#!/usr/bin/env bash
# Builds a local Kubernetes control plane (kube-apiserver and etcd, and kubectl if asked for) from
# the published Go modules, for the tests and the sample.
#
#   scripts/install-control-plane.sh [--kubectl] [VERSION ...]
#
# VERSION is a Kubernetes release such as 1.37.2 (default: KUBERNETES_NEWEST in
# scripts/control-plane/versions.env). etcd is built at the version that release names in its
# build/dependencies.yaml, unless ETCD_VERSION is set. --kubectl builds kubectl too (the tests do not
# need it; the sample's script does).
#
# Each version lands in envtest's layout, $OPERATOR_CONTROL_PLANE_DIR/k8s/<version>-linux-<arch>/
# (default ~/.cache/operator-spring-boot/control-plane), so KUBEBUILDER_ASSETS can point at it.
# A version already there is not built again. The Go build cache and module cache are Go's own
# (go env GOCACHE GOMODCACHE).
#
# kube-apiserver cannot be built with 'go install k8s.io/kubernetes/cmd/kube-apiserver@v1.x.y': the
# module's replace directives point its staging modules (k8s.io/api, ...) at directories of its own
# repository. So each build is a small main module that requires k8s.io/kubernetes, pins every
# staging module to the matching v0.x.y, and builds the upstream main packages as its tools.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/control-plane/versions.env

dest=${OPERATOR_CONTROL_PLANE_DIR:-$HOME/.cache/operator-spring-boot/control-plane}
log() { echo "[control-plane] $*" >&2; }
die() { log "$*"; exit 1; }

command -v go >/dev/null || die "go is not on the PATH; a Go toolchain (1.26 or newer) builds the control plane"
arch=$(go env GOARCH)
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

# Prints the replace directives that pin k8s.io/kubernetes' staging modules to v0.<minor>.<patch>.
staging_replaces() {
  local version=$1 gomod=$2
  sed -n 's|^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/.*$|\1|p' "$gomod" |
    while read -r module; do echo "replace $module => $module v0.${version#1.}"; done
}

# Builds the main packages $3... of module $2 into directory $4 with ldflags $5, in work dir $1.
build_tools() {
  local work=$1 ldflags=$2 out=$3
  shift 3
  (cd "$work" && go get -tool "$@" >"$work/get.log" 2>&1) || { tail -30 "$work/get.log" >&2; exit 1; }
  local packages=()
  for p in "$@"; do packages+=("${p%@*}"); done
  (cd "$work" && go build -trimpath -ldflags "$ldflags" -o "$out/" "${packages[@]}" >"$work/build.log" 2>&1) ||
    { tail -30 "$work/build.log" >&2; exit 1; }
}

installed() {
  local target=$1
  [[ -x "$target/kube-apiserver" && -x "$target/etcd" ]] && { ((!with_kubectl)) || [[ -x "$target/kubectl" ]]; }
}

install_version() {
  local version=${1#v}
  [[ $version =~ ^1\.[0-9]+\.[0-9]+$ ]] || die "not a Kubernetes release version: $1 (expected e.g. $KUBERNETES_NEWEST)"
  local target="$dest/k8s/$version-linux-$arch"
  if installed "$target"; then
    log "Kubernetes $version cached in $target"
    return
  fi
  local started=$SECONDS work
  work=$(mktemp -d)
  local tools=("k8s.io/kubernetes/cmd/kube-apiserver@v$version")
  ((with_kubectl)) && tools+=("k8s.io/kubernetes/cmd/kubectl@v$version")
  log "building Kubernetes $version (${tools[*]%%@*}) from its Go module in $work"
  local gomod
  gomod=$(cd "$work" && go mod download -json "k8s.io/kubernetes@v$version" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
  [[ -f $gomod ]] || die "the Go module proxy does not serve k8s.io/kubernetes@v$version (go list -m -versions k8s.io/kubernetes lists those it does)"
  local go_directive
  go_directive=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$gomod")
  mkdir -p "$work/kubernetes" "$work/etcd" "$work/bin"
  { echo "module kubeboot.local/control-plane/kubernetes"; echo; echo "go $go_directive"; echo
    staging_replaces "$version" "$gomod"; } >"$work/kubernetes/go.mod"
  local major=1 minor=${version#1.}
  minor=${minor%%.*}
  local ldflags="-s -w" key value
  for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
    for key in gitVersion=v$version gitMajor=$major gitMinor=$minor gitTreeState=clean \
      buildDate=1970-01-01T00:00:00Z; do
      ldflags+=" -X $pkg.$key"
    done
  done
  build_tools "$work/kubernetes" "$ldflags" "$work/bin" "${tools[@]}"

  local etcd=${ETCD_VERSION:-}
  if [[ -z $etcd && -x "$target/etcd" ]]; then
    etcd=$("$target/etcd" --version | sed -n 's/^etcd Version: //p')
    cp "$target/etcd" "$work/bin/etcd"
  else
    if [[ -z $etcd ]]; then
      local dependencies
      dependencies="$(cd "$work" && go mod download -json "k8s.io/kubernetes@v$version" |
        sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')/build/dependencies.yaml"
      etcd=$(awk '/name: "etcd"$/ {getline; print $2; exit}' "$dependencies")
      [[ -n $etcd ]] || die "no etcd version found in $dependencies; set ETCD_VERSION"
    fi
    log "building etcd $etcd (the version Kubernetes $version names) from its Go module"
    printf 'module kubeboot.local/control-plane/etcd\n\ngo %s\n' "$go_directive" >"$work/etcd/go.mod"
    build_tools "$work/etcd" "-s -w" "$work/etcd-bin" "go.etcd.io/etcd/server/v3@v$etcd"
    # go build names a binary after its package path: server/v3 becomes 'server' or 'v3'
    mv "$(find "$work/etcd-bin" -maxdepth 1 -type f | head -1)" "$work/bin/etcd"
    cp "$work/etcd/go.mod" "$work/bin/etcd.go.mod"
  fi

  mkdir -p "$target"
  install -m 0755 "$work/bin/kube-apiserver" "$work/bin/etcd" "$target/"
  ((with_kubectl)) && install -m 0755 "$work/bin/kubectl" "$target/"
  # the main modules the binaries were built from, for the record
  cp "$work/kubernetes/go.mod" "$target/kubernetes.go.mod"
  [[ -f "$work/bin/etcd.go.mod" ]] && cp "$work/bin/etcd.go.mod" "$target/etcd.go.mod"
  rm -rf "$work"
  log "installed Kubernetes $version and etcd $etcd into $target in $((SECONDS - started)) s"
  "$target/kube-apiserver" --version >&2
}

if [[ -n "${KUBEBUILDER_ASSETS:-}" && ( $# -eq 0 || $* == --kubectl ) ]]; then
  [[ -x "$KUBEBUILDER_ASSETS/etcd" && -x "$KUBEBUILDER_ASSETS/kube-apiserver" ]] ||
    die "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS holds no etcd and kube-apiserver; unset it to build them"
  log "using KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS"
  exit 0
fi
with_kubectl=0
versions=()
for arg in "$@"; do
  case $arg in
    --kubectl) with_kubectl=1 ;;
    *) versions+=("$arg") ;;
  esac
done
((${#versions[@]})) || versions=("$KUBERNETES_NEWEST")
for version in "${versions[@]}"; do install_version "$version"; done
