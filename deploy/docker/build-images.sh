#!/usr/bin/env bash
# Builds every Spinroom image from deploy/docker/Dockerfile (needs a Docker engine).
#   REGISTRY=ghcr.io/spinroom TAG=0.1.0 bash deploy/docker/build-images.sh [component...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
registry="${REGISTRY:-ghcr.io/spinroom}"
tag="${TAG:-$(node -p 'require("./package.json").version ?? "dev"' 2>/dev/null || echo dev)}"
# Every folder under services/ is a service (with its entry in the list of services), then the BFF and the web client.
declare -A workspace=([bff]=bff [web]=web)
services=()
for dir in services/*/; do
  name=$(basename "$dir")
  workspace[$name]=services/$name
  services+=("$name")
done
components=("$@")
(( ${#components[@]} > 0 )) || components=("${services[@]}" bff web)
for c in "${components[@]}"; do
  target=service
  [[ $c == upload ]] && target=upload
  [[ $c == web ]] && target=web
  docker build -f deploy/docker/Dockerfile --target "$target" --build-arg "WORKSPACE=${workspace[$c]}" -t "$registry/$c:$tag" .
done
