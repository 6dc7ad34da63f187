#!/usr/bin/env bash
# Builds the production image of each app (all of them unless named) from infra/docker/Dockerfile,
# tagged dormant/<app>, and the operator tools' image dormant/tools (the workspace stage).
#
#   bash infra/docker/build-images.sh                     # docker, official node:24-bookworm-slim
#   bash infra/docker/build-images.sh gateway filing      # only these apps
#
# Settings (environment):
#   ENGINE       docker (default) or podman
#   ENGINE_FLAGS extra flags for `ENGINE build` (on this repo's build machine:
#                "--runtime runc --ulimit nofile=16384:16384 --ulimit nproc=4096:4096 --network host")
#   NODE_IMAGE   the Node LTS base (default node:24-bookworm-slim; infra/docker/standin-base.sh
#                makes localhost/node-standin:24-bookworm-slim where no container registry is reachable)
#   CA_BUNDLE    a CA bundle file for a build machine whose egress re-signs TLS, passed as a build
#                secret (never stored in a layer)
set -euo pipefail
cd "$(dirname "$0")/../.."

ENGINE=${ENGINE:-docker}
NODE_IMAGE=${NODE_IMAGE:-node:24-bookworm-slim}
read -r -a flags <<< "${ENGINE_FLAGS:-}"
flags+=(-f infra/docker/Dockerfile --build-arg "NODE_IMAGE=$NODE_IMAGE")
[ -n "${CA_BUNDLE:-}" ] && flags+=(--secret "id=ca-certificates,src=$CA_BUNDLE")

if [ $# -gt 0 ]; then apps=("$@"); else mapfile -t apps < <(ls apps); fi

build() { # tag, then build flags
  local tag=$1 started=$SECONDS
  shift
  if ! "$ENGINE" build "${flags[@]}" "$@" -t "$tag" . > "/tmp/dormant-image-${tag//\//-}.log" 2>&1; then
    tail -30 "/tmp/dormant-image-${tag//\//-}.log" >&2
    echo "build-images: $tag failed (whole log: /tmp/dormant-image-${tag//\//-}.log)" >&2
    exit 1
  fi
  echo "build-images: $tag in $((SECONDS - started)) s" >&2
}

build dormant/tools --target workspace
for app in "${apps[@]}"; do
  [ -d "apps/$app" ] || { echo "build-images: no app $app" >&2; exit 1; }
  build "dormant/$app" --target runtime --build-arg "APP=$app"
done
