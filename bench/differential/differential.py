#!/usr/bin/env python3
"""The differential run: the reference readers beside `tensorgate check --format json` over the
fuzz corpora, the samples, a few edge probes and seeded mutations of them; prints every
disagreement that docs/rules.md does not explain.

    TG_ST_ORACLE=... TG_GGUF_ORACLE=... bench/differential/differential.py [--build build/release]
        [--mutations 0] [--seed 1] [--jobs 2]

The reference readers are not part of the project (bench/README.md): each format is skipped,
cleanly, when its variable is unset. A disagreement is explained when docs/rules.md explains it:
  - safetensors: tensorgate's report holds `STW.reference-differs` (it parts from the reference
    reader there on purpose, either way);
  - the reference accepts what tensorgate refuses, and the help text of every error rule in the
    report says the reference accepts it ("ggml accepts", "the reference reader accepts"): e.g.
    GG5.truncated, ggml's unchecked data section;
  - GGUF, ggml refuses a file tensorgate finds valid: `GGW.llama-cpp` says llama.cpp's reader
    refuses it;
  - every error judges content no reader looks at (CONTENT_FAMILIES: CT, a chat template that
    reaches Python internals is loaded as a string and only runs when rendered).
A check that stopped at a capacity limit (`aborted`) is not a verdict: counted, never compared.
Exit status: 0 when every disagreement is explained (or nothing could run), 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inputs as inputs_mod  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE_ENV = {"safetensors": "TG_ST_ORACLE", "gguf": "TG_GGUF_ORACLE"}
BATCH = 400
MAX_DATA = 1 << 30  # a header_json input's declared data, written sparse, at most


def tensorgate_reports(tg, fmt, paths):
    """{path: file report} from `tensorgate check --format json --no-tensors`."""
    out = {}
    for i in range(0, len(paths), BATCH):
        batch = paths[i:i + BATCH]
        r = subprocess.run([tg, "check", "--format", "json", "--no-tensors", "--input-format", fmt] + batch,
                           stdout=subprocess.PIPE)
        for entry in json.loads(r.stdout)["files"]:
            out[entry["path"]] = entry
    return out


def oracle(exe, path):
    try:
        r = subprocess.run([exe, path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
    except subprocess.TimeoutExpired:
        return {"ok": None, "error": "timeout"}
    if r.returncode not in (0,):
        return {"ok": None, "error": "exit %d %s" % (r.returncode, r.stdout.decode(errors="replace").strip())}
    return json.loads(r.stdout)


def errors(report):
    return sorted({f["rule"] for f in report["findings"] if f["severity"] == "error"})


def rules(report):
    return {f["rule"] for f in report["findings"]}


def llama_cpp_says(report):
    for f in report["findings"]:
        if f["rule"] == "GGW.llama-cpp":
            return "refuses" not in f["message"], f["message"]
    return None, ""


def rule_help(root):
    """{rule id: what it checks} from docs/rules.md."""
    out = {}
    with open(os.path.join(root, "docs", "rules.md")) as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) >= 6 and cells[1].startswith("`"):
                out[cells[1].strip("`")] = cells[4]
    return out


# The words with which docs/rules.md says that the reference reader accepts what a rule refuses.
ACCEPTS = {"safetensors": ("the reference reader accepts", "the reference accepts"), "gguf": ("ggml accepts",)}


# Families that judge what a file holds rather than its format: no reference reader looks at them
# (CT: the chat template, which a reader loads as a string and only a renderer runs).
CONTENT_FAMILIES = ("CT",)


def judges_content(rule):
    return rule.split(".")[0] in CONTENT_FAMILIES


def content_only(report):
    """Whether the report has errors and every one of them judges content."""
    errs = errors(report)
    return bool(errs) and all(judges_content(r) for r in errs)


def documented_leniency(fmt, report, helps):
    errs = [r for r in errors(report) if not judges_content(r)]
    return bool(errs) and all(any(w in helps.get(r, "") for w in ACCEPTS[fmt]) for r in errs)


def classify(fmt, report, ref, helps):
    """(kind, reason): kind is agree, explained, aborted or DIFF."""
    if report.get("error"):
        return "DIFF", "tensorgate could not read it: " + report["error"]
    if report["aborted"] is not None:
        return "aborted", report["aborted"]["limit"] if isinstance(report["aborted"], dict) else str(report["aborted"])
    if ref.get("ok") is None:
        return "DIFF", "the reference failed: " + ref.get("error", "")
    valid, ok = report["valid"], ref["ok"]
    if fmt == "safetensors":
        if valid == ok:
            if "STW.reference-differs" in rules(report) and len(errors(report)) <= 1:
                # It says the reference decides otherwise, which it does not (with two errors or
                # more, another one may decide the verdict on both sides).
                return "note", "STW.reference-differs, yet the reference decides the same"
            return "agree", ""
        if "STW.reference-differs" in rules(report):
            return "explained", "STW.reference-differs"
        if ok and content_only(report):
            return "explained", "content the reference does not judge: " + ",".join(errors(report))
        if ok and documented_leniency(fmt, report, helps):
            return "explained", "docs/rules.md: the reference accepts " + ",".join(errors(report))
        return "DIFF", ""
    loads, message = llama_cpp_says(report) if valid else (None, "")
    if valid and ok:
        if loads is False:
            return "DIFF", "ggml loads it, GGW.llama-cpp said: " + message
        s = report["summary"] or {}
        if (s.get("tensor_count"), s.get("kv_count")) != (ref.get("n_tensors"), ref.get("n_kv")):
            return "DIFF", "counts: tensorgate %s tensors %s kv, ggml %s and %s" % (
                s.get("tensor_count"), s.get("kv_count"), ref.get("n_tensors"), ref.get("n_kv"))
        return "agree", ""
    if not valid and not ok:
        return "agree", ""
    if not valid:  # ggml accepts
        if content_only(report):
            return "explained", "content ggml does not judge: " + ",".join(errors(report))
        if documented_leniency(fmt, report, helps):
            return "explained", "docs/rules.md: ggml accepts " + ",".join(errors(report))
        return "DIFF", ""
    if loads is False:  # ggml refuses, as GGW.llama-cpp predicted
        return "explained", "GGW.llama-cpp"
    return "DIFF", "GGW.llama-cpp said: " + message


def write_inputs(tmp, items, tg):
    """Writes each input to a file; header_json inputs get the data their offsets declare."""
    paths = []
    for n, inp in enumerate(items):
        p = os.path.join(tmp, "%06d.%s" % (n, inp.format))
        with open(p, "wb") as f:
            f.write(inp.data)
        paths.append(p)
    needs = [p for p, inp in zip(paths, items) if inp.needs_data]
    if needs:
        for p, rep in tensorgate_reports(tg, "safetensors", needs).items():
            length = (rep.get("summary") or {}).get("data_length") or 0
            if 0 < length <= MAX_DATA:
                os.truncate(p, os.path.getsize(p) + length)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    ap.add_argument("--mutations", type=int, default=0, help="mutations of every input (seeded)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show-explained", action="store_true")
    args = ap.parse_args()
    tg = os.path.join(args.build, "cli", "tensorgate")
    oracles = {fmt: os.environ.get(var) for fmt, var in ORACLE_ENV.items()}
    oracles = {fmt: exe for fmt, exe in oracles.items() if exe}
    if not oracles:
        print("differential: skipped (set %s and/or %s to the reference readers)" % tuple(ORACLE_ENV.values()))
        return 0
    base = inputs_mod.corpus_inputs(ROOT) + inputs_mod.probes()
    items = inputs_mod.unique(base + inputs_mod.mutated(base, args.mutations, args.seed))
    items = [i for i in items if i.format in oracles]
    helps = rule_help(ROOT)
    counts, unexplained = {}, 0
    with tempfile.TemporaryDirectory(prefix="tg-differential-") as tmp:
        paths = write_inputs(tmp, items, tg)
        for fmt, exe in sorted(oracles.items()):
            chosen = [(p, i) for p, i in zip(paths, items) if i.format == fmt]
            reports = tensorgate_reports(tg, fmt, [p for p, _ in chosen])
            with ThreadPoolExecutor(args.jobs) as pool:
                refs = list(pool.map(lambda pi: oracle(exe, pi[0]), chosen))
            for (p, inp), ref in zip(chosen, refs):
                rep = reports[p]
                kind, reason = classify(fmt, rep, ref, helps)
                c = counts.setdefault(fmt, {})
                c[kind] = c.get(kind, 0) + 1
                if kind == "agree" and rep["valid"]:
                    c["both valid"] = c.get("both valid", 0) + 1
                if kind in ("DIFF", "note") or (kind == "explained" and args.show_explained):
                    unexplained += kind == "DIFF"
                    verdict = {True: "valid", False: "invalid", None: "aborted"}[rep["valid"]]
                    print("%s %s [%s]: tensorgate %s %s; reference %s %s%s" % (
                        kind, fmt, inp.label, verdict, ",".join(errors(rep)) or "-",
                        "ok" if ref.get("ok") else "refuses", ref.get("error", ""),
                        ("; " + reason) if reason else ""))
    for fmt, c in sorted(counts.items()):
        print("differential %s: %d files: %d agree (%d of them valid), %d explained, %d notes, %d aborted "
              "(capacity), %d unexplained" % (fmt, sum(c.values()) - c.get("both valid", 0), c.get("agree", 0),
                                              c.get("both valid", 0), c.get("explained", 0), c.get("note", 0),
                                              c.get("aborted", 0), c.get("DIFF", 0)))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
