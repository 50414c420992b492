#!/usr/bin/env python3
"""scripts/check_walls.py catches what it is for: a copy of core/ and docs/architecture.md passes,
and the same copy fails, naming the file and the rooms, once a report writer includes diff/'s
private header, and once a room appears that the room table has no row for."""
import os
import shutil
import subprocess
import sys
import tempfile

repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
check = os.path.join(repo, "scripts", "check_walls.py")


def copy_of_core(into):
    shutil.copytree(os.path.join(repo, "core"), os.path.join(into, "core"))
    os.makedirs(os.path.join(into, "docs"))
    shutil.copy(os.path.join(repo, "docs", "architecture.md"), os.path.join(into, "docs"))


def walls(tree):
    run = subprocess.run([sys.executable, check, tree], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


failures = []


def expect(what, ok):
    if not ok:
        failures.append(what)


with tempfile.TemporaryDirectory() as clean:
    copy_of_core(clean)
    rc, out = walls(clean)
    expect(f"a clean copy passes (rc {rc}: {out.strip()})", rc == 0)

with tempfile.TemporaryDirectory() as planted:
    copy_of_core(planted)
    victim = os.path.join(planted, "core", "src", "report", "json_report.cpp")
    with open(victim, "a", encoding="utf-8") as fh:
        fh.write('\n#include "diff/match.hpp"\n')
    rc, out = walls(planted)
    expect(f"a planted diff/ include in report/ fails (rc {rc})", rc == 1)
    expect(f"the finding names the file and both rooms ({out.strip()})",
           "core/src/report/json_report.cpp: report/ includes diff/" in out)

with tempfile.TemporaryDirectory() as unlisted:
    copy_of_core(unlisted)
    os.makedirs(os.path.join(unlisted, "core", "src", "rowless"))
    with open(os.path.join(unlisted, "core", "src", "rowless", "validator.cpp"), "w", encoding="utf-8") as fh:
        fh.write('#include "common/findings.hpp"\n')
    rc, out = walls(unlisted)
    expect(f"a room without a row fails (rc {rc})", rc == 1)
    expect(f"the finding names the room ({out.strip()})", "core/src/rowless/: a room without a row" in out)

for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print("walls_catch: a clean core passes; a cross-room include and a room without a row are caught")
