# The bot as a container image: the same as the README's run command (`make run` -> `python -m bot`), with the
# exact, hash-checked dependency versions of requirements.lock, run as an unprivileged user (tablebot, uid 10001).
# In webhook mode (compose.yaml) a worker serves Telegram's posts on TELEGRAM_WEBHOOK_PORT (8443); with
# METRICS_PORT (9100) it serves /metrics, /healthz and /readyz there (docs/operations.md).
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 DATA_DIR=/data
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin tablebot \
    && mkdir /data && chown tablebot:tablebot /data
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY core ./core
COPY renderers ./renderers
COPY bot ./bot
COPY assets ./assets
RUN pip install --no-cache-dir --no-deps .
USER tablebot
VOLUME ["/data"]
EXPOSE 8443 9100
CMD ["python", "-m", "bot"]
