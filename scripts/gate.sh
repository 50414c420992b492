#!/usr/bin/env bash
# tensorgate as a CI gate: the script the GitHub Action (action.yml) runs, usable by any CI.
# It checks the given paths twice from one binary: once as SARIF into a file (for code
# scanning), once as text into the log (and the job summary), and exits with tensorgate's status:
# 0 all valid, 1 something invalid (or a warning with fail-on warning), 2 usage or I/O error,
# 3 nothing checkable found.
#
# Settings come from the environment, so that no input is ever spliced into shell code:
#   TENSORGATE_PATHS    paths to check, one per line (default: .)
#   TENSORGATE_FAIL_ON  error | warning (default: error)
#   TENSORGATE_SARIF    where the SARIF goes (default: tensorgate.sarif)
#   TENSORGATE          the command that runs tensorgate (default: `tensorgate` on PATH, else an
#                       image built from this repository's Dockerfile, run with docker)
# In GitHub Actions it also writes `sarif-file=` to $GITHUB_OUTPUT and the text report to
# $GITHUB_STEP_SUMMARY; tests/deploy/test_action.py runs it the way action.yml does.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

fail_on=${TENSORGATE_FAIL_ON:-error}
case "$fail_on" in
  error|warning) ;;
  *) echo "::error::fail-on must be error or warning, not '$fail_on'"; exit 2 ;;
esac
sarif=${TENSORGATE_SARIF:-tensorgate.sarif}

paths=()
while IFS= read -r line; do
  line=${line%$'\r'}
  [ -n "${line//[[:space:]]/}" ] && paths+=("$line")
done <<< "${TENSORGATE_PATHS:-.}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)

# The tensorgate command, as words. A container sees the workspace at the same path, so relative
# paths (and the SARIF locations, which code scanning matches against the repository) agree.
if [ -n "${TENSORGATE:-}" ]; then
  read -r -a tg <<< "$TENSORGATE"
elif command -v tensorgate >/dev/null 2>&1; then
  tg=(tensorgate)
elif command -v docker >/dev/null 2>&1; then
  image="tensorgate-gate:$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo local)"
  if ! docker image inspect "$image" >/dev/null 2>&1; then
    echo "::group::Building the tensorgate image from $here"
    docker build --quiet -t "$image" "$here"
    echo "::endgroup::"
  fi
  tg=(docker run --rm --network=none -v "$PWD:$PWD:ro" -w "$PWD" "$image")
else
  echo "::error::no tensorgate: set TENSORGATE, put tensorgate on PATH, or provide docker"
  exit 2
fi

mkdir -p "$(dirname "$sarif")"
status=0
"${tg[@]}" check --format sarif --fail-on "$fail_on" -- "${paths[@]}" > "$sarif" || status=$?
if [ -s "$sarif" ] && [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "sarif-file=$sarif" >> "$GITHUB_OUTPUT"
fi

# The same check for people; its status is the one above (the same files, the same rules).
report=$("${tg[@]}" check --format text --color never --fail-on "$fail_on" -- "${paths[@]}" 2>&1) || true
# File names are the checked repository's: never let one read as a workflow command.
if [ "${GITHUB_ACTIONS:-}" = true ]; then
  token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
  echo "::stop-commands::$token"
  printf '%s\n' "$report"
  echo "::$token::"
else
  printf '%s\n' "$report"
fi

case "$status" in
  0) verdict="tensorgate: every file passes (fail-on $fail_on)" ;;
  1) verdict="tensorgate: the gate fails: invalid files, or findings at or above $fail_on" ;;
  2) verdict="tensorgate: usage or I/O error (status 2)" ;;
  3) verdict="tensorgate: no safetensors or GGUF file found in: ${paths[*]}" ;;
  *) verdict="tensorgate: unexpected status $status" ;;
esac
if [ "$status" -eq 0 ]; then echo "$verdict"; else echo "::error::$verdict"; fi

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### $verdict"
    echo
    echo '```text'
    printf '%s\n' "$report"
    echo '```'
  } >> "$GITHUB_STEP_SUMMARY"
fi
exit "$status"
