# Redis 7 from Debian's packages, for the compose files' REDIS_IMAGE where no registry offers
# redis:7-alpine. Runs as the package's redis user in /data, as the official image does.
FROM fc-bot-local/debian:bookworm
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb \
    && install -d -o redis -g redis /data
WORKDIR /data
USER redis
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no", "--dir", "/data"]
