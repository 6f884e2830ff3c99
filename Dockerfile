# Failscope service image: `docker build -t failscope .`
#   docker run -p 8080:8080 -v failscope-data:/data -e FAILSCOPE_UPLOAD_TOKENS=secret failscope
#
# Stage 1 builds the CLI in release with a static Swift standard library on the official Swift 6
# image; stage 2 runs it on slim Debian with only the C libraries it loads.

FROM swift:6.0-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libsqlite3-dev libpng-dev libfreetype-dev libmicrohttpd-dev libssl-dev zlib1g-dev libpq-dev \
        libcurl4-openssl-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Benchmarks ./Benchmarks
COPY Tests ./Tests
COPY Migrations ./Migrations
RUN swift build -c release --product failscope --static-swift-stdlib \
    && install -D "$(swift build -c release --show-bin-path)/failscope" /out/bin/failscope

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libsqlite3-0 libpq5 libpng16-16 libmicrohttpd12 libfreetype6 fonts-dejavu-core libssl3 \
        libcurl4 libxml2 libstdc++6 ca-certificates curl libjs-chart.js \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin failscope \
    && mkdir -p /data && chown failscope /data
COPY --from=build /out/bin/failscope /usr/local/bin/failscope
# The dashboard and the migrations (the binary embeds the SQL; the files document it).
COPY Web /usr/local/share/failscope/Web
COPY Migrations /usr/local/share/failscope/Migrations
USER failscope
VOLUME ["/data"]
ENV FAILSCOPE_HOST=0.0.0.0 FAILSCOPE_PORT=8080 FAILSCOPE_DATA=/data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s CMD curl -sf http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/failscope"]
CMD ["serve"]
