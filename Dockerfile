# tensorgate: the HTTP validation service in a container.
#   docker build --network=host -t tensorgate .
#   docker run --rm --network=host tensorgate            # listens on 0.0.0.0:8080
# Limits are flags of `tensorgate serve` (docs/service.md); append them to `docker run`.

# --- build: a release build of the one binary, from Debian 12's packages --------------------
FROM debian:bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      g++ cmake ninja-build \
      libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev \
      libspdlog-dev libfmt-dev libssl-dev \
      libclang-rt-14-dev \
 && rm -rf /var/lib/apt/lists/*
# libclang-rt-14-dev: fuzz/CMakeLists.txt needs its FuzzedDataProvider.h at configure time.
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DTG_BUILD_TESTS=OFF -DTG_BUILD_BENCH=OFF \
 && cmake --build /build --target tensorgate -j2 \
 && strip /build/cli/tensorgate

# --- run: the binary, its shared libraries and a user without privileges ---------------------
# Boost and OpenSSL are linked statically (CMakeLists.txt); spdlog and fmt ship no static library.
FROM debian:bookworm
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libspdlog1.10 libfmt9 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --no-create-home --uid 10001 --shell /usr/sbin/nologin tensorgate
COPY --from=build /build/cli/tensorgate /usr/local/bin/tensorgate
USER tensorgate
EXPOSE 8080
# bash's /dev/tcp keeps curl out of the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /livez HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# SIGTERM drains (docs/service.md); exec form makes tensorgate PID 1's child-free process.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tensorgate", "serve"]
CMD ["--listen", "0.0.0.0:8080"]
