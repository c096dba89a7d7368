# Caddy 2 from Debian's packages, for docker-compose.scale.yml's CADDY_IMAGE where no registry
# offers caddy:2-alpine. Its state (certificates) lives in /data, as in the official image.
FROM fc-bot-local/debian:bookworm
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends caddy ca-certificates \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
EXPOSE 80 443
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
