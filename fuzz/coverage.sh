#!/bin/bash
# Line coverage of core/ over the fuzz corpora: builds the replay binaries with clang
# source-based coverage (preset coverage), replays corpus/<target>/ (regressions included),
# prints the percentage for core/ and for each of its rooms (core/src/<room>/), and writes the uncovered lines
# to build/coverage/uncovered-lines.txt.
#
#   fuzz/coverage.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(sed -n 's/^ *tg_fuzzer(\([a-z_0-9]*\).*/\1/p' fuzz/CMakeLists.txt)
fi

build=build/coverage
cmake --preset coverage >/dev/null
cmake --build --preset coverage --target "${targets[@]}"
rm -rf "$build/profiles"
mkdir -p "$build/profiles"
objects=()
for t in "${targets[@]}"; do
  LLVM_PROFILE_FILE="$build/profiles/$t-%p.profraw" "$build/fuzz/$t" corpus/"$t" >/dev/null
  objects+=(-object "$build/fuzz/$t")
done
llvm-profdata-14 merge -sparse "$build"/profiles/*.profraw -o "$build/corpus.profdata"

sources=(core/src core/include)
llvm-cov-14 export -format=lcov -instr-profile="$build/corpus.profdata" "${objects[@]:1}" "${sources[@]}" \
  >"$build/core.lcov"
python3 - "$build/core.lcov" "$build/uncovered-lines.txt" <<'PY'
import os, sys
lcov, out = sys.argv[1], sys.argv[2]
files, current = {}, None
for line in open(lcov):
    line = line.strip()
    if line.startswith("SF:"):
        current = os.path.relpath(line[3:])
        files[current] = {}
    elif line.startswith("DA:") and current:
        n, count = line[3:].split(",")[:2]
        files[current][int(n)] = int(count)

# One figure per room of core/src (one folder per format, the report writers, the shared code),
# then all of core/.
def room(path):
    parts = path.split("/")
    if "src" not in parts:
        return "include"
    i = parts.index("src")
    return parts[i + 1] if i + 2 < len(parts) else "src"

def total(pred):
    lines = [c for f, d in files.items() if pred(f) for c in d.values()]
    return sum(1 for c in lines if c > 0), len(lines)

with open(out, "w") as fh:
    for f in sorted(files):
        missed = sorted(n for n, c in files[f].items() if c == 0)
        if missed:
            fh.write(f"{f}: {','.join(map(str, missed))}\n")
rooms = sorted({room(f) for f in files})
for label, pred in [("core/ (all)", lambda f: True)] + [(f"core/ {r}", (lambda r: lambda f: room(f) == r)(r)) for r in rooms]:
    hit, n = total(pred)
    print(f"line coverage of {label}: {hit}/{n} = {100.0 * hit / max(n, 1):.2f}%")
print(f"uncovered lines: {out}")
PY
