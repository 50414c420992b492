# tensorgate in a container: the HTTP validation service, and the gate for model files.
#   docker build --network=host -t tensorgate .
#   docker run --rm --network=host tensorgate            # serve, listening on 0.0.0.0:8080
#   docker run --rm -v "$PWD:/data:ro" tensorgate check /data
# Limits are flags of `tensorgate serve` (docs/service.md); append them to `docker run`.
# deploy/docker/entrypoint.sh decides: no arguments or flags serve, a command runs that command.

# --- build: a release build of the one binary, from Debian 12's packages --------------------
FROM debian:bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      g++ cmake ninja-build \
      libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev \
      libspdlog-dev libfmt-dev libssl-dev zlib1g-dev libbz2-dev liblzma-dev liblz4-dev libexpat1-dev \
      libclang-rt-14-dev \
 && rm -rf /var/lib/apt/lists/*
# libclang-rt-14-dev: fuzz/CMakeLists.txt needs its FuzzedDataProvider.h at configure time.
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTG_BUILD_TESTS=OFF -DTG_BUILD_BENCH=OFF \
 && cmake --build /build --target tensorgate -j2 \
 && strip /build/cli/tensorgate /build/cli/tensorgate-tls /build/cli/tensorgate-serve /build/cli/tensorgate-remote

# --- run: the binary and a user without privileges -------------------------------------------
# The executable is a static PIE: libc, Boost, libcrypto's SHA-256, zlib, libstdc++ and libgcc
# are linked into it, spdlog and fmt compiled from their headers (CMakeLists.txt,
# cli/CMakeLists.txt). Its helpers are looked for in ../lib/tensorgate/ from it: the service,
# tensorgate-serve, which `tensorgate serve` executes; tensorgate-remote, the CLI with its
# network half, which `check` and `diff` execute for a URL; and the TLS helper https checks run
# OpenSSL in, a process per connection. The last two need only libc (docs/architecture.md, "Build").
FROM debian:bookworm
# OCI annotations (https://specs.opencontainers.org/image-spec/annotations/); set the build's
# version, revision and time with --build-arg.
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="tensorgate" \
      org.opencontainers.image.description="Validates untrusted model files (safetensors, GGUF): an HTTP service and a CLI gate" \
      org.opencontainers.image.source="https://github.com/tensorgate/tensorgate" \
      org.opencontainers.image.documentation="https://github.com/tensorgate/tensorgate/blob/main/docs/deploy.md" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="docker.io/library/debian:bookworm"
RUN useradd --system --no-create-home --uid 10001 --shell /usr/sbin/nologin tensorgate
COPY --from=build /build/cli/tensorgate /usr/local/bin/tensorgate
COPY --from=build /build/cli/tensorgate-tls /usr/local/lib/tensorgate/tensorgate-tls
COPY --from=build /build/cli/tensorgate-serve /usr/local/lib/tensorgate/tensorgate-serve
COPY --from=build /build/cli/tensorgate-remote /usr/local/lib/tensorgate/tensorgate-remote
COPY deploy/docker/entrypoint.sh /usr/local/bin/tensorgate-entrypoint
USER tensorgate
# `docker run -v "$PWD:/data" tensorgate check .` reports paths relative to the mount.
WORKDIR /data
EXPOSE 8080
# bash's /dev/tcp keeps curl out of the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /livez HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# SIGTERM drains (docs/service.md); the entry point execs tensorgate, so it is PID 1 itself.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tensorgate-entrypoint"]
CMD ["serve", "--listen", "0.0.0.0:8080"]
