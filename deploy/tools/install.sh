#!/usr/bin/env bash
# Installs the deployment tools the tests and the load scenarios use, built
# from source through the Go module proxy (`go install`), into
# $SPINROOM_LOCAL_DIR/tools/bin (.local/tools/bin by default):
#   helm  (helm lint / helm template of helm/spinroom in `npm test`)
#   k6    (the load scenarios in deploy/k6, `npm run bench:k6`)
#   stripe-mock (Stripe's own mock API server: the payment service's tests and
#         `npm start` without a Stripe key of one's own)
#   mailpit (the mail catcher deploy/local/up.sh starts: SMTP and a web inbox;
#         built with `go build` from the module's source, see install_mailpit)
# and, from PyPI into a virtualenv, $SPINROOM_LOCAL_DIR/tools/schemathesis:
#   schemathesis  (the REST fuzzer in `npm test`, test/fuzz/openapi.test.ts)
# and, from Debian's packages (apt-get, as deploy/local installs PostgreSQL):
#   podman  (podman, the runc runtime, netavark and aardvark-dns for its
#           networks, debootstrap for the base images: deploy/docker/build-images.sh
#           and the container test, test/deploy/containers.test.ts)
# Idempotent: a tool already built at the pinned version is kept.
#   bash deploy/tools/install.sh [helm] [k6] [stripe-mock] [mailpit] [schemathesis] [podman]      (default: helm and k6)
set -euo pipefail

HELM_VERSION=v3.22.0
K6_VERSION=v1.8.1
STRIPE_MOCK_VERSION=v0.203.0
MAILPIT_VERSION=v1.27.11
SCHEMATHESIS_VERSION=4.32.5

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
local_dir="$(realpath -m "${SPINROOM_LOCAL_DIR:-$repo/.local}")"
bin="$local_dir/tools/bin"
mkdir -p "$bin"

# The Go toolchain's own install location, when it is not on PATH (a minimal PATH).
command -v go >/dev/null || [[ ! -x /usr/local/go/bin/go ]] || PATH="$PATH:/usr/local/go/bin"
need_go() { command -v go >/dev/null || { echo "deploy/tools/install.sh: Go is needed to build the tools (apt-get install golang, or the machine's Go)" >&2; exit 1; }; }
# debootstrap lives in sbin, which a minimal PATH leaves out.
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin:/sbin" ;; esac

install_tool() { # name version module-path
  local name=$1 version=$2 module=$3 stamp="$bin/.$1.version"
  if [[ -x "$bin/$name" && "$(cat "$stamp" 2>/dev/null)" == "$version" ]]; then return 0; fi
  need_go
  echo "building $name $version with go install (a few minutes the first time)..." >&2
  # One build at a time on small machines; the module cache makes rebuilds quick.
  GOBIN="$bin" GOFLAGS="${GOFLAGS:-} -buildvcs=false" CGO_ENABLED=0 go install "$module@$version"
  echo "$version" >"$stamp"
}

# Mailpit embeds its web inbox (server/ui/dist), which its git ignores, so the
# module proxy's copy lacks it and a plain `go install` serves an empty page
# (the REST API works). So: the module's source from the proxy, its inbox built
# with its own package-lock (npm registry) and esbuild config, then go build.
install_mailpit() {
  local version=$MAILPIT_VERSION module=github.com/axllent/mailpit stamp="$bin/.mailpit.version" src work
  if [[ -x "$bin/mailpit" && "$(cat "$stamp" 2>/dev/null)" == "$version" ]]; then return 0; fi
  need_go
  command -v npm >/dev/null || { echo "deploy/tools/install.sh: npm is needed to build Mailpit's web inbox" >&2; exit 1; }
  echo "building mailpit $version (its web inbox with npm, then go build; a few minutes the first time)..." >&2
  src="$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -d $src ]] || { echo "deploy/tools/install.sh: go mod download $module@$version failed" >&2; exit 1; }
  work="$local_dir/tools/mailpit-src"
  rm -rf "$work"
  cp -r "$src" "$work"
  chmod -R u+w "$work" # the module cache is read-only
  (cd "$work" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2 && MINIFY=true node esbuild.config.mjs >&2)
  [[ -s $work/server/ui/dist/app.js ]] || { echo "deploy/tools/install.sh: Mailpit's web inbox did not build" >&2; exit 1; }
  (cd "$work" && GOFLAGS="${GOFLAGS:-} -buildvcs=false" CGO_ENABLED=0 \
    go build -ldflags "-s -w -X github.com/axllent/mailpit/config.Version=$version" -o "$bin/mailpit" .)
  rm -rf "$work"
  echo "$version" >"$stamp"
}

install_schemathesis() {
  local venv="$local_dir/tools/schemathesis" stamp="$local_dir/tools/schemathesis/.version"
  if [[ -x "$venv/bin/st" && "$(cat "$stamp" 2>/dev/null)" == "$SCHEMATHESIS_VERSION" ]]; then ln -sf "$venv/bin/st" "$bin/st"; return 0; fi
  # Debian's python3 (any 3.9+ works); venv needs python3-venv on a bare Debian.
  local python
  python="$(command -v python3 || true)"
  [[ -n "$python" ]] || { apt-get install -y python3 python3-venv >&2; python="$(command -v python3)"; }
  "$python" -m venv --help >/dev/null 2>&1 && "$python" -c 'import ensurepip' 2>/dev/null || apt-get install -y python3-venv >&2
  echo "installing schemathesis $SCHEMATHESIS_VERSION from PyPI..." >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
  echo "$SCHEMATHESIS_VERSION" >"$stamp"
  ln -sf "$venv/bin/st" "$bin/st"
}

# Debian's podman 4.3 with runc (crun refuses hybrid cgroups: docs/operations.md),
# its network stack, and debootstrap for base images made without a registry.
# Under the lock deploy/local's apt-get installs take, output in .local/apt-podman.log.
install_podman() {
  local pkgs=(podman runc netavark aardvark-dns iptables debootstrap) missing=() p
  for p in "${pkgs[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  ((${#missing[@]} == 0)) && return 0
  [[ $EUID -eq 0 ]] || { echo "deploy/tools/install.sh: need root to apt-get install ${missing[*]}" >&2; exit 1; }
  echo "installing ${missing[*]} with apt-get..." >&2
  (
    flock 9
    { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 "${missing[@]}"; } \
      >"$local_dir/apt-podman.log" 2>&1
  ) 9>/var/lock/spinroom-local-apt.lock || { tail -n 20 "$local_dir/apt-podman.log" >&2; echo "deploy/tools/install.sh: apt-get install ${missing[*]} failed" >&2; exit 1; }
}

tools=("$@")
(( ${#tools[@]} > 0 )) || tools=(helm k6)
for tool in "${tools[@]}"; do
  case "$tool" in
    helm) install_tool helm "$HELM_VERSION" helm.sh/helm/v3/cmd/helm ;;
    k6) install_tool k6 "$K6_VERSION" go.k6.io/k6 ;;
    stripe-mock) install_tool stripe-mock "$STRIPE_MOCK_VERSION" github.com/stripe/stripe-mock ;;
    mailpit) install_mailpit ;;
    schemathesis) install_schemathesis ;;
    podman) install_podman ;;
    *) echo "unknown tool: $tool (helm, k6, stripe-mock, mailpit, schemathesis, podman)" >&2; exit 2 ;;
  esac
done
echo "$bin"
