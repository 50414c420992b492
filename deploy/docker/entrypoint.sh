#!/bin/sh
# The container's entry point: one image for the service and for the gate.
#   docker run IMAGE                               tensorgate serve on 0.0.0.0:8080
#   docker run IMAGE --max-body-bytes 1000000000   the same with flags (--listen defaults to 0.0.0.0:8080)
#   docker run --rm -v "$PWD:/data:ro" IMAGE check /data    any other command: tensorgate check, audit, rules
# exec: tensorgate becomes PID 1 and gets SIGTERM itself (the drain, docs/service.md).
set -eu
tensorgate=${TENSORGATE:-/usr/local/bin/tensorgate}
case "${1:-}" in
  "" | -*)
    for arg in "$@"; do
      case "$arg" in --listen | --listen=*) exec "$tensorgate" serve "$@" ;; esac
    done
    exec "$tensorgate" serve --listen 0.0.0.0:8080 "$@"
    ;;
  *) exec "$tensorgate" "$@" ;;
esac
