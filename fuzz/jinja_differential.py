#!/usr/bin/env python3
"""Differential check of the chat template lexer against Jinja's own (jinja2.lexer): random
templates from fragments that stress delimiters, whitespace control, raw blocks,
comments, escapes, numbers, brackets and Unicode spaces; for each, Jinja's token stream (with
string values decoded) must equal ct_tokens' (tests/tools/ct_tokens.cpp), whole and fed in
random pieces, and a template Jinja refuses must be CT.lex here. Needs python3-jinja2
(scripts/setup.sh); CTest runs seed 1 with 1,000 templates (ct_jinja_differential), more seeds
and counts are for a campaign by hand.

usage: fuzz/jinja_differential.py CT_TOKENS [SEED [COUNT]]

Known, on purpose: a number right after "." or with a leading zero splits differently (numbers
are literals either way); an unknown \\N{name} is some character here, an error to Jinja; the end
of the template inside a tag, comment or raw block is CT.lex here, silent in Jinja's lexer (its
parser refuses it); a non-ASCII character Jinja's names refuse is part of a name here.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

from jinja2 import Environment
from jinja2.exceptions import TemplateSyntaxError

env = Environment(trim_blocks=True, lstrip_blocks=True)
TOOL = sys.argv[1]

def py_tokens(src):
    out = []
    try:
        for tok in env.lexer.tokenize(src):
            t, v = tok.type, tok.value
            if t == "variable_begin": out.append("V")
            elif t == "block_begin": out.append("B")
            elif t in ("variable_end", "block_end"): out.append("E")
            elif t == "name": out.append("N " + v[:48] if len(v.encode()) <= 48 else "N* " + v)
            elif t == "string":
                v2 = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in v)
                b = v2.encode("utf-8")
                out.append("S " + (b.hex() if len(b) <= 48 else "*") + " " + str(len(b)))
            elif t in ("integer", "float"): out.append("I")
            elif t == "operator": out.append("O " + v)
            elif t in ("data", "raw_begin", "raw_end"): pass
            elif isinstance(v, str): out.append("O " + v)
            else: out.append("?" + t)
    except TemplateSyntaxError as e:
        return None, str(e)
    return out, None

def my_tokens(path, step=None):
    args = [TOOL, path] + ([str(step)] if step else [])
    r = subprocess.run(args, capture_output=True)
    lines = r.stdout.decode("utf-8", "replace").splitlines()
    toks, errs = [], []
    for l in lines:
        if l.startswith("X "): errs.append(l); continue
        if l.startswith("S "):
            _, hx, n, flags = l.split(" ")
            toks.append("S " + (hx if int(n) <= 48 else "*") + " " + n)
        elif l.startswith("N "):
            toks.append(l if len(l[2:].encode()) < 48 else "N* ")
        else: toks.append(l)
    return toks, errs, r.stdout

FRAG = ["{{", "}}", "{%", "%}", "{#", "#}", "-}}", "{{-", "{%-", "-%}", "+%}", "{%+", "{{+", " ", "\n", "\t", "\u00a0", "\u3000",
        "x", "_", "__", "abc", "if", "for", "in", "raw", "endraw", "{% raw %}", "{% endraw %}", "{%- raw -%}", "{%raw%}",
        "'", '"', "\\", "\\x5f", "\\u005f", "\\137", "\\N{LOW LINE}", "\\n", "\\\n", "\\q", "'abc'", '"a\\"b"', "'_'", "'__'",
        "0", "1", "9", ".", "1.5", "1e3", "1e", "1_0", "0x1f", "0x", "0b1", "e", "E", "+", "-", "*", "**", "/", "//", "%", "=", "==", "!", "!=",
        "<", "<=", ">", ">=", "~", "|", ",", ":", ";", "(", ")", "[", "]", "{", "}", "é", "中", "€", "\u0085", "#", "@", "$", "?",
        "a.b", "x|attr", "\\x", "\\x5", "\\u00", "\\U0000005f", "\\U00110000", "\\N{", "\\N{low line}", "\\N{LATIN SMALL LETTER A}", "\\7", "\\77", "\\777", "\\r", "\r\n", "\r", "\\\r\n", "\\é", "\\_", "\\'", '\\"', "\x0b", "\x1c", "\u2028", "cycler.x", "{{ x }}", "{% if x %}", "{% endif %}", "text"]

def gen(rng):
    n = rng.randint(1, 25)
    parts = []
    for _ in range(n):
        parts.append(rng.choice(FRAG))
    return "".join(parts)

def gen_tagged(rng):
    # mostly well formed: data, then a tag with random inner fragments
    out = []
    for _ in range(rng.randint(1, 5)):
        out.append(rng.choice(["", "data ", "\n", "{"]))
        kind = rng.choice(["{{", "{%", "{#"])
        mod = rng.choice(["", "-", "+"])
        inner = "".join(rng.choice(FRAG[13:]) for _ in range(rng.randint(0, 8)))
        end = {"{{": "}}", "{%": "%}", "{#": "#}"}[kind]
        emod = rng.choice(["", "-", "+", " "])
        out.append(kind + mod + " " + inner + " " + emod + end)
    return "".join(out)

def numbers_apart(tokens):
    """The stream without numbers and the exponents Jinja leaves in names after a "." (known)."""
    out = []
    for t in tokens:
        if t == "I":
            continue
        if t.startswith("N "):
            name = re.sub(r"^[eE][0-9]+", "", t[2:])
            if not name:
                continue
            t = "N " + name
        out.append(t)
    return out


def main():
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    bad = 0
    tmp = tempfile.TemporaryDirectory()
    d = tmp.name
    for i in range(count):
        src = gen(rng) if i % 2 else gen_tagged(rng)
        p = os.path.join(d, "t.jinja")
        with open(p, "w", encoding="utf-8") as f: f.write(src)
        pt, perr = py_tokens(src)
        mt, merr, raw = my_tokens(p)
        mt2, merr2, raw2 = my_tokens(p, rng.randint(1, 5))
        if raw != raw2:
            print("CHUNKING", repr(src)); bad += 1; continue
        if any("ends inside a {" in e for e in merr) and mt and mt[-1] == "E" and pt is not None and (not pt or pt[-1] != "E"): mt = mt[:-1]
        merr = [e for e in merr if "ends inside a {" not in e]
        if pt is None:
            if "unexpected char" in perr and any(ord(c) > 127 for c in perr.split("unexpected char")[1][:4]): continue
            if not merr:
                print("PY-ERR-ONLY", repr(src), perr); bad += 1
            continue
        if merr and all("ends inside" in e for e in merr):
            merr = []
        if merr:
            print("MY-ERR-ONLY", repr(src), merr[:2]); bad += 1; continue
        if pt != mt and numbers_apart(pt) != numbers_apart(mt):
            print("DIFF", repr(src)); print("  py", pt); print("  me", mt); bad += 1
        if bad > 25: break
    print("bad", bad, "of", i + 1)
    sys.exit(1 if bad else 0)


main()
