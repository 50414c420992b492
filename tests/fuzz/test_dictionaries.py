#!/usr/bin/env python3
"""Every token of every fuzz/<target>.dict appears in at least one file of corpus/<target>/:
a token no seed holds is one the fuzzer must discover by itself, and usually a typo.

usage: test_dictionaries.py REPO_ROOT
"""
import os
import re
import sys

ROOT = sys.argv[1]
TOKEN = re.compile(r'^\s*(?:[A-Za-z0-9_]+\s*=\s*)?"(.*)"\s*$')


def unescape(text):
    out, i = bytearray(), 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            if text[i + 1] == "x":
                out.append(int(text[i + 2 : i + 4], 16))
                i += 4
                continue
            out.append(ord(text[i + 1]))
            i += 2
            continue
        out += text[i].encode()
        i += 1
    return bytes(out)


def main():
    failures, checked = [], 0
    for name in sorted(os.listdir(os.path.join(ROOT, "fuzz"))):
        if not name.endswith(".dict"):
            continue
        target = name[: -len(".dict")]
        corpus = os.path.join(ROOT, "corpus", target)
        if not os.path.isdir(corpus):
            continue  # a shared dictionary (targets link to it)
        blobs = []
        for base, _, files in os.walk(corpus):
            for f in files:
                with open(os.path.join(base, f), "rb") as fh:
                    blobs.append(fh.read())
        with open(os.path.join(ROOT, "fuzz", name), encoding="utf-8") as fh:
            for line in fh:
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                m = TOKEN.match(line)
                if not m:
                    failures.append(f"{name}: not a dictionary line: {line.strip()}")
                    continue
                token = unescape(m.group(1))
                checked += 1
                if not any(token in blob for blob in blobs):
                    failures.append(f"{name}: no seed in corpus/{target}/ holds {token!r}")
    for f in failures:
        print(f)
    print(f"{checked} tokens checked")
    sys.exit(1 if failures or checked == 0 else 0)


main()
