# The scorekeeper's image: the app (gunicorn, SQLite in /data unless
# DATABASE_URL) and, as a second target, the front (Caddy) that compose.yaml
# puts before it. Build and run (docs/self-hosting.md):
#   docker build -t scorekeeper .
#   docker run -d -p 8000:8000 -v scorekeeper:/data scorekeeper
# Podman reads the same file (podman build --format docker keeps HEALTHCHECK).
ARG DEBIAN=docker.io/library/debian:trixie-slim

# --- The app's wheels, in a virtualenv of Debian's Python 3.13 -----------------
FROM ${DEBIAN} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 python3-venv ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/venv
COPY requirements.txt /tmp/requirements.txt
# Wheels only, never a compiler: every requirement has one for x86_64 and aarch64
# (tests/container/test_wheels.py). A machine whose outgoing HTTPS is re-signed
# by its own authority passes that bundle in as a build secret, never kept:
#   --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi; \
    /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check \
      --only-binary=:all: -r /tmp/requirements.txt \
 && /opt/venv/bin/pip uninstall --yes --quiet pip
WORKDIR /app
COPY . .
# Static files collected (and compressed, with hashed names) once, here.
RUN SECRET_KEY=collectstatic-only STATIC_ROOT=/app/staticfiles \
      /opt/venv/bin/python manage.py collectstatic --noinput --verbosity 0 \
 && /opt/venv/bin/python -m compileall -q /app

# --- What both images say of themselves ------------------------------------------
FROM ${DEBIAN} AS released
ARG VERSION=1.0.0
ARG SOURCE=""
LABEL org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="BSD-3-Clause"

# --- The front: Debian's Caddy with the static files -----------------------------
FROM released AS front
LABEL org.opencontainers.image.title="Black Maria scorekeeper: the front (Caddy)"
# Caddy as its own user, allowed ports 80 and 443 and nothing else of root's.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      caddy ca-certificates libcap2-bin \
 && setcap cap_net_bind_service=+ep /usr/bin/caddy \
 && apt-get purge -y libcap2-bin && apt-get autoremove -y \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data /config && chown caddy:caddy /data /config
COPY deploy/Caddyfile /etc/caddy/Caddyfile
COPY --from=build /app/staticfiles /srv/static
# Caddy's certificates and its local authority in /data (a volume), kept across upgrades.
ENV XDG_DATA_HOME=/data \
    XDG_CONFIG_HOME=/config \
    SCOREKEEPER_STATIC=/srv/static \
    SCOREKEEPER_SITE=localhost \
    SCOREKEEPER_APP=app:8000
USER caddy
VOLUME /data
EXPOSE 80 443 443/udp
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]

# --- The app: last, so that a build with no --target makes it -------------------
FROM released AS app
LABEL org.opencontainers.image.title="Black Maria scorekeeper" \
      org.opencontainers.image.description="Scores for Black Maria and the Hearts family at a real card table"
# Python, pg_dump for backups of a PostgreSQL database, and the world's time zones.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 postgresql-client tzdata \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin scorekeeper \
 && mkdir /data /backups && chown scorekeeper:scorekeeper /data /backups && chmod 0700 /data /backups
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATA_DIR=/data \
    STATIC_ROOT=/app/staticfiles \
    SCOREKEEPER_APP=0.0.0.0:8000
WORKDIR /app
USER scorekeeper
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python", "deploy/container/healthcheck.py"]
# gunicorn stops gracefully on SIGTERM: the workers finish what they answer.
STOPSIGNAL SIGTERM
ENTRYPOINT ["deploy/container/start"]
CMD ["serve"]
