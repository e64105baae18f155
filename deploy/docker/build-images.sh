#!/usr/bin/env bash
# Builds every Spinroom image from deploy/docker/Dockerfile (needs a Docker engine).
#   REGISTRY=ghcr.io/spinroom TAG=0.1.0 bash deploy/docker/build-images.sh [component...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
registry="${REGISTRY:-ghcr.io/spinroom}"
tag="${TAG:-$(node -p 'require("./package.json").version ?? "dev"' 2>/dev/null || echo dev)}"
declare -A workspace=([user]=services/user [playlist]=services/playlist [upload]=services/upload [room]=services/room [chat]=services/chat [points]=services/points [payment]=services/payment [bff]=bff [web]=web)
components=("$@")
(( ${#components[@]} > 0 )) || components=(user playlist upload room chat points payment bff web)
for c in "${components[@]}"; do
  target=service
  [[ $c == upload ]] && target=upload
  [[ $c == web ]] && target=web
  docker build -f deploy/docker/Dockerfile --target "$target" --build-arg "WORKSPACE=${workspace[$c]}" -t "$registry/$c:$tag" .
done
