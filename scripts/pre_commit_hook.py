#!/usr/bin/env python3
"""The pre-commit hook (.pre-commit-hooks.yaml): `tensorgate check` over the staged model files.

pre-commit passes the staged files that match the hook's `files:` pattern (weights, config.json,
indexes); it has stashed unstaged changes, so the working tree holds what is staged. This script
 - warns about Git LFS pointers (a pointer is not the weights: checking it says nothing about
   them) and leaves them out;
 - checks a directory that holds weights and config.json or an index as a model directory (the
   cross-file rules need every file of it, staged or not);
 - checks every other staged weights file on its own;
and exits with tensorgate's status (0 pass, 1 findings at or above --fail-on, 2 usage or I/O).

usage: pre_commit_hook.py [--fail-on error|warning] [--tensorgate CMD] [--strict-lfs] FILE...
The tensorgate command is --tensorgate, else $TENSORGATE, else `tensorgate` on PATH; it is split
into words, so `docker run --rm -v $PWD:$PWD -w $PWD tensorgate` works too.
Standard library only: pre-commit runs it with whatever python3 the machine has.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

# Files that hold weights. The directory walk of `tensorgate check DIR` reads the first two;
# the others (pickles) are passed by name even inside a model directory, so they are never missed.
WALKED_WEIGHTS = (".safetensors", ".gguf")
OTHER_WEIGHTS = (".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pickle")
# What makes a directory a model directory for the CLI (cli/inputs.cpp, is_model_directory).
MODEL_DIR_MARKERS = ("config.json", "model.safetensors", "model.safetensors.index.json")

LFS_POINTER_MAX_BYTES = 1024  # git-lfs writes pointers of ~130 bytes and reads at most 1024
LFS_VERSION = re.compile(rb"^version https://(git-lfs\.github\.com|hawser\.github\.com)/spec/v1\n")
LFS_OID = re.compile(rb"^oid sha256:([0-9a-f]{64})$", re.M)
LFS_SIZE = re.compile(rb"^size ([0-9]+)$", re.M)


def is_weights(name):
    return name.lower().endswith(WALKED_WEIGHTS + OTHER_WEIGHTS)


def is_index(name):
    return name.lower().endswith(".index.json")


def lfs_pointer(path):
    """(oid, size) when the file is a Git LFS pointer, else None."""
    try:
        if os.path.getsize(path) > LFS_POINTER_MAX_BYTES:
            return None
        with open(path, "rb") as f:
            text = f.read(LFS_POINTER_MAX_BYTES)
    except OSError:
        return None
    if not LFS_VERSION.match(text):
        return None
    oid, size = LFS_OID.search(text), LFS_SIZE.search(text)
    return (oid.group(1).decode() if oid else "?", size.group(1).decode() if size else "?")


def directory_listing(directory):
    try:
        return sorted(e.name for e in os.scandir(directory or ".") if e.is_file())
    except OSError:
        return []


def plan(files, warn):
    """The paths to hand to tensorgate check, in a stable order."""
    by_dir = {}
    for f in files:
        by_dir.setdefault(os.path.dirname(f), []).append(f)
    targets = []
    for directory in sorted(by_dir):
        staged = sorted(by_dir[directory])
        names = directory_listing(directory)
        pointers = [n for n in names if is_weights(n) and lfs_pointer(os.path.join(directory, n))]
        weights = [n for n in names if is_weights(n) and n not in pointers]
        model_dir = (any(n in MODEL_DIR_MARKERS or is_index(n) for n in names) and
                     (weights or any(is_index(n) for n in names)))
        if model_dir and pointers:
            warn(f"{directory or '.'}: holds Git LFS pointers ({', '.join(pointers)}): "
                 "its files are checked one by one, not as a model directory")
            model_dir = False
        if model_dir:
            targets.append(directory or ".")
            targets += [f for f in staged if f.lower().endswith(OTHER_WEIGHTS)]
            continue
        for f in staged:
            name = os.path.basename(f)
            if is_weights(name) and name not in pointers:
                targets.append(f)
            elif not is_weights(name):
                warn(f"{f}: no weights beside it: not checked")
    return targets


def tensorgate_command(option):
    command = option or os.environ.get("TENSORGATE", "")
    if command:
        return shlex.split(command)
    found = shutil.which("tensorgate")
    return [found] if found else None


def main(argv):
    parser = argparse.ArgumentParser(description="tensorgate check over staged model files")
    parser.add_argument("--fail-on", choices=("error", "warning"), default="error")
    parser.add_argument("--tensorgate", default="", help="command that runs tensorgate")
    parser.add_argument("--strict-lfs", action="store_true", help="an LFS pointer fails the hook")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)

    def warn(message):
        print(f"tensorgate: warning: {message}")

    files, pointer_count = [], 0
    for f in args.files:
        pointer = lfs_pointer(f) if is_weights(f) else None
        if pointer:
            pointer_count += 1
            warn(f"{f} is a Git LFS pointer (oid sha256:{pointer[0]}, size {pointer[1]}), not the "
                 "weights: not checked; `git lfs pull` fetches the file")
            continue
        if os.path.isfile(f):
            files.append(f)

    pointers_fail = args.strict_lfs and pointer_count > 0
    targets = plan(files, warn)
    if not targets:
        return 1 if pointers_fail else 0
    command = tensorgate_command(args.tensorgate)
    if not command:
        print("tensorgate: not found: put it on PATH, set TENSORGATE or pass --tensorgate "
              "(README: The gate in CI and before commits)", file=sys.stderr)
        return 2
    status = subprocess.run([*command, "check", "--fail-on", args.fail_on, "--", *targets],
                            check=False).returncode
    if status == 0 and pointers_fail:
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
