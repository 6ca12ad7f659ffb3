#!/usr/bin/env bash
# Runs every test of the project, integration tests included, against a real local control plane.
# Installs what it needs first (Debian packages, and kube-apiserver built once into a cache).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-control-plane.sh
mvn -B verify "$@"
