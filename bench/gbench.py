"""Runs one Google Benchmark program of bench/ and returns its rows by argument and name: the
part the figure scripts (run_header_bench.py, run_speed.py) share."""
import json
import os
import subprocess


def rows(bench_dir, program, bench_filter, min_time="0.5"):
    """{arg: {"BM_Name": row}} for the benchmarks `bench_filter` selects (names "BM_Name/arg/...")."""
    out = subprocess.run([os.path.join(bench_dir, program), "--benchmark_format=json",
                          "--benchmark_filter=" + bench_filter, "--benchmark_min_time=" + min_time],
                         capture_output=True, text=True, check=True).stdout
    by_arg = {}
    for b in json.loads(out)["benchmarks"]:
        name, arg = b["name"].split("/")[:2]
        by_arg.setdefault(int(arg), {})[name] = b
    return by_arg
