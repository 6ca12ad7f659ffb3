#!/usr/bin/env bash
# Installs a local Kubernetes control plane (etcd + kube-apiserver 1.20) for the tests and the sample.
#
# etcd comes from Debian's etcd-server package; kube-apiserver is built from Debian's kubernetes
# source package with Debian's Go toolchain, because no prebuilt binary can be downloaded here.
# The result is cached in $OPERATOR_CONTROL_PLANE_DIR (default ~/.cache/operator-spring-boot/control-plane),
# so the build (about three minutes) happens once per machine.
#
# If KUBEBUILDER_ASSETS is set and holds etcd and kube-apiserver, nothing is installed.
set -euo pipefail

dest=${OPERATOR_CONTROL_PLANE_DIR:-$HOME/.cache/operator-spring-boot/control-plane}
log() { echo "[control-plane] $*" >&2; }

if [[ -n "${KUBEBUILDER_ASSETS:-}" && -x "$KUBEBUILDER_ASSETS/etcd" && -x "$KUBEBUILDER_ASSETS/kube-apiserver" ]]; then
  log "using KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS"
  exit 0
fi
if [[ -x "$dest/kube-apiserver" && -x "$dest/etcd" ]]; then
  log "cached in $dest"
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if ((${#missing[@]})); then
    log "installing Debian packages: ${missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Source packages need deb-src in the Debian sources entry.
enable_deb_src() {
  local f=/etc/apt/sources.list.d/debian.sources
  if [[ -f $f ]] && ! grep -q '^Types:.*deb-src' "$f"; then
    log "enabling deb-src in $f"
    "${sudo_cmd[@]}" sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
    "${sudo_cmd[@]}" apt-get update -qq
  elif [[ ! -f $f ]] && ! grep -rqs '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    log "no Debian sources entry found to enable deb-src in" && exit 1
  fi
}

apt_install etcd-server golang-go rsync golang-github-modern-go-reflect2-dev dpkg-dev ca-certificates openssl
command -v kubectl >/dev/null || apt_install kubernetes-client
# The etcd package starts a system etcd on 2379; the tests run their own on free ports.
if command -v systemctl >/dev/null && systemctl is-active --quiet etcd 2>/dev/null; then
  "${sudo_cmd[@]}" systemctl stop etcd || true
fi
enable_deb_src

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log "fetching the kubernetes source package into $work"
(cd "$work" && apt-get source -qq --download-only kubernetes >/dev/null && dpkg-source -x --no-check ./kubernetes_*.dsc src >/dev/null)
tree="$work/src"

# reflect2 1.0.1 (vendored) crashes the API server on the first custom resource with Go >= 1.18.
log "replacing vendored modern-go/reflect2 with Debian's 1.0.2"
rm -rf "$tree/vendor/github.com/modern-go/reflect2"
mkdir -p "$tree/vendor/github.com/modern-go/reflect2"
cp -r /usr/share/gocode/src/github.com/modern-go/reflect2/. "$tree/vendor/github.com/modern-go/reflect2/"
sed -i 's|^# github.com/modern-go/reflect2 v1.0.1|# github.com/modern-go/reflect2 v1.0.2|' "$tree/vendor/modules.txt" || true

log "building kube-apiserver (a few minutes)"
mkdir -p "$tree/.go/src/k8s.io"
ln -s "$tree" "$tree/.go/src/k8s.io/kubernetes"
(cd "$tree/.go/src/k8s.io/kubernetes" && GOPATH="$tree/.go" CGO_ENABLED=0 \
  make WHAT=cmd/kube-apiserver >"$work/build.log" 2>&1) || { tail -50 "$work/build.log" >&2; exit 1; }

mkdir -p "$dest"
install -m 0755 "$(find "$tree/_output" -type f -name kube-apiserver -perm -u+x | head -1)" "$dest/kube-apiserver"
ln -sf "$(command -v etcd || echo /usr/bin/etcd)" "$dest/etcd"
log "installed into $dest"
"$dest/kube-apiserver" --version >&2
