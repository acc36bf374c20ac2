# The bot as a container image: the same as the README's run command (`make run` -> `python -m bot`).
# In webhook mode (compose.yaml) a worker serves Telegram's posts on TELEGRAM_WEBHOOK_PORT (8443) and
# answers GET /healthz there.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 DATA_DIR=/data
COPY pyproject.toml README.md LICENSE ./
COPY core ./core
COPY renderers ./renderers
COPY bot ./bot
COPY assets ./assets
RUN pip install --no-cache-dir .
VOLUME ["/data"]
EXPOSE 8443
CMD ["python", "-m", "bot"]
