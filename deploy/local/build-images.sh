#!/bin/sh
# Base images for machines that reach Debian's package mirror but no image registry: a Debian
# bookworm root made by debootstrap and imported into Docker, then Python 3.11, Redis 7 and
# Caddy 2 from Debian's own packages on top of it. Built once; an image already present is kept.
#   deploy/local/build-images.sh   # fc-bot-local/debian, /python, /redis and /caddy
# Then build and run with them (docs/operations.md, "Without a registry"):
#   PYTHON_IMAGE=fc-bot-local/python:3.11 REDIS_IMAGE=fc-bot-local/redis:7 \
#   CADDY_IMAGE=fc-bot-local/caddy:2 docker-compose ...
# Needs root, debootstrap and a running Docker engine. MIRROR names another Debian mirror.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mirror=${MIRROR:-http://deb.debian.org/debian}
docker=${DOCKER:-docker}

present() { "$docker" image inspect "$1" >/dev/null 2>&1; }

if ! present fc-bot-local/debian:bookworm; then
    root=$(mktemp -d /tmp/fc-bot-debootstrap.XXXXXX)
    trap 'rm -rf "$root"' EXIT
    echo "debootstrap: a minimal Debian bookworm from $mirror" >&2
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 \
        || { tail -20 "$root.log" >&2; rm -f "$root.log"; exit 1; }
    rm -f "$root.log"
    # As Debian's slim images: no manuals, documentation or translations, now or from any
    # package installed later; the package lists and caches are fetched again when needed.
    cp "$here/slim.dpkg.cfg" "$root/etc/dpkg/dpkg.cfg.d/slim"
    rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
        "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
    tar -C "$root" -c . | "$docker" import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' - fc-bot-local/debian:bookworm >/dev/null
fi
for image in python:3.11 redis:7 caddy:2; do
    name=${image%%:*} tag=${image#*:}
    if ! present "fc-bot-local/$name:$tag"; then
        echo "building fc-bot-local/$name:$tag from Debian's packages" >&2
        "$docker" build -q -t "fc-bot-local/$name:$tag" -f "$here/$name.Dockerfile" "$here" >/dev/null
    fi
done
