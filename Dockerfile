# One image for every service of docker-compose.yml: the API, the workers, Flower, migrate.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    SUDOKU_BATCH_DATA_DIR=/data

# libgomp1: ONNX Runtime's OpenMP; fonts: the renders' and the synthetic tests' digits.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY . /app
# Editable so the code in /app is what runs (the migrations ship inside the package).
# gcc compiles the rating core (setup.py, mypyc) and leaves with its layer's other build tools;
# the slim image has the Python headers.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && SUDOKU_BATCH_COMPILE=1 pip install -e . \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /app sudoku \
    && mkdir -p /data && chown sudoku /data
USER sudoku

CMD ["sudoku-batch", "--help"]
