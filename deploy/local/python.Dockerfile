# Python 3.11 from Debian's packages, for deploy/Dockerfile's PYTHON_IMAGE where no registry
# offers python:3.11-slim. python3-venv: the build stage makes the bot's virtualenv with it.
FROM fc-bot-local/debian:bookworm
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        python3 python3-venv ca-certificates \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb
CMD ["python3"]
