#!/usr/bin/env bash
# Installs the deployment tools the tests and the load scenarios use, built
# from source through the Go module proxy (`go install`), into
# $SPINROOM_LOCAL_DIR/tools/bin (.local/tools/bin by default):
#   helm  (helm lint / helm template of helm/spinroom in `npm test`)
#   k6    (the load scenarios in deploy/k6, `npm run bench:k6`)
# Idempotent: a tool already built at the pinned version is kept.
#   bash deploy/tools/install.sh [helm] [k6]      (default: both)
set -euo pipefail

HELM_VERSION=v3.22.0
K6_VERSION=v1.8.1

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
local_dir="$(realpath -m "${SPINROOM_LOCAL_DIR:-$repo/.local}")"
bin="$local_dir/tools/bin"
mkdir -p "$bin"

# The Go toolchain's own install location, when it is not on PATH (a minimal PATH).
command -v go >/dev/null || [[ ! -x /usr/local/go/bin/go ]] || PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "deploy/tools/install.sh: Go is needed to build the tools (apt-get install golang, or the machine's Go)" >&2; exit 1; }

install_tool() { # name version module-path
  local name=$1 version=$2 module=$3 stamp="$bin/.$1.version"
  if [[ -x "$bin/$name" && "$(cat "$stamp" 2>/dev/null)" == "$version" ]]; then return 0; fi
  echo "building $name $version with go install (a few minutes the first time)..." >&2
  # One build at a time on small machines; the module cache makes rebuilds quick.
  GOBIN="$bin" GOFLAGS="${GOFLAGS:-} -buildvcs=false" CGO_ENABLED=0 go install "$module@$version"
  echo "$version" >"$stamp"
}

tools=("$@")
(( ${#tools[@]} > 0 )) || tools=(helm k6)
for tool in "${tools[@]}"; do
  case "$tool" in
    helm) install_tool helm "$HELM_VERSION" helm.sh/helm/v3/cmd/helm ;;
    k6) install_tool k6 "$K6_VERSION" go.k6.io/k6 ;;
    *) echo "unknown tool: $tool (helm, k6)" >&2; exit 2 ;;
  esac
done
echo "$bin"
