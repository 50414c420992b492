#!/usr/bin/python3
"""OpenVINO IR: model.xml parsed against Python's ElementTree, and a ~1 GB pair against stat.

1. A model.xml of LAYERS layers (a chain of Const -> MatMul -> Add blocks of real IR v11 shape:
   ports with dims and names, rt_info, edges; ~1 KB a layer) with its .bin. In one run,
   `tensorgate check --format json model.xml` as a whole process, against
   xml.etree.ElementTree.parse of the same file inside this Python process (no start-up counted
   for it), and, for the floor of any reader built on expat, pyexpat parsing the bytes with no
   handler set: wall and CPU time, the medians of ROUNDS runs each, and the ratios.
2. A pair of BIG_CONSTS Const layers whose .bin is ~1 GB (a sparse file: the check never reads
   the .bin, it only needs its size), checked by `tensorgate check` against a small C program
   that stats the .bin and reads the whole model.xml: the least any checker of the pair must do.
   Whole processes in alternating pairs, warm.

usage: /usr/bin/python3 bench/run_openvino_bench.py [BUILD_DIR] [--layers=10000] [--rounds=10]
           [--big-consts=256] [--pairs=20] [--dir=DIR]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import xml.parsers.expat as expat

from skip_bench_support import ms, run

args = [a for a in sys.argv[1:] if not a.startswith("--")]
opts = dict((a[2:].split("=", 1) + [""])[:2] for a in sys.argv[1:] if a.startswith("--"))
build = args[0] if args else "build/release"
layers = int(opts.get("layers", "10000"))
rounds = int(opts.get("rounds", "10"))
big_consts = int(opts.get("big-consts", "256"))
pairs = int(opts.get("pairs", "20"))

YARDSTICK = r"""
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
/* argv: XML BIN: stat the .bin, read the whole .xml. */
int main(int argc, char** argv) {
  static char buf[1 << 20];
  struct stat st;
  if (argc < 3 || stat(argv[2], &st) != 0) return 2;
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) return 2;
  long long total = 0;
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) total += n;
  close(fd);
  printf("%lld %lld\n", total, (long long)st.st_size);
  return 0;
}
"""


def port(pid, dims, name=None, precision="FP32"):
    names = f' names="{name}"' if name else ""
    return f'<port id="{pid}" precision="{precision}"{names}>' + "".join(f"<dim>{d}</dim>" for d in dims) + "</port>"


def rt(version="0"):
    return f'<rt_info><attribute name="fused_names" version="{version}" value="node_a,node_b"/></rt_info>'


def write_model(path, n_layers, const_dims):
    """A chain: Parameter, then blocks of Const + MatMul (+ Add with a Const) until n_layers, then
    Result. Returns the .bin size the Consts describe."""
    out, edges = [], []
    out.append('<?xml version="1.0"?>\n<net name="bench" version="11">\n\t<layers>\n')
    out.append('\t\t<layer id="0" name="input" type="Parameter" version="opset1">'
               '<data shape="1,64" element_type="f32"/>' + rt() +
               '<output>' + port(0, [1, 64], "input") + '</output></layer>\n')
    offset, prev, lid = 0, 0, 1
    size = const_dims[0] * const_dims[1] * 4
    while lid < n_layers - 1:
        out.append(f'\t\t<layer id="{lid}" name="w{lid}" type="Const" version="opset1">'
                   f'<data element_type="f32" shape="{const_dims[0]},{const_dims[1]}" offset="{offset}" size="{size}"/>' +
                   rt() + '<output>' + port(0, const_dims, f"w{lid}") + '</output></layer>\n')
        offset += size
        out.append(f'\t\t<layer id="{lid + 1}" name="mm{lid}" type="MatMul" version="opset1">'
                   '<data transpose_a="false" transpose_b="true"/>' + rt() +
                   '<input>' + port(0, [1, 64]) + port(1, const_dims) + '</input>'
                   '<output>' + port(2, [1, 64], f"mm{lid}") + '</output></layer>\n')
        edges.append((prev, 0 if prev == 0 else 2, lid + 1, 0))
        edges.append((lid, 0, lid + 1, 1))
        prev = lid + 1
        lid += 2
    out.append(f'\t\t<layer id="{lid}" name="output" type="Result" version="opset1">' + rt() +
               '<input>' + port(0, [1, 64]) + '</input></layer>\n')
    edges.append((prev, 2 if prev else 0, lid, 0))
    out.append('\t</layers>\n\t<edges>\n')
    for e in edges:
        out.append(f'\t\t<edge from-layer="{e[0]}" from-port="{e[1]}" to-layer="{e[2]}" to-port="{e[3]}"/>\n')
    out.append('\t</edges>\n\t<rt_info>\n\t\t<MO_version value="2024.0"/>\n\t\t<Runtime_version value="2024.0"/>\n'
               '\t\t<conversion_parameters><framework value="pytorch"/></conversion_parameters>\n\t</rt_info>\n</net>\n')
    with open(path, "w") as f:
        f.write("".join(out))
    return offset, lid + 1


def check(path):
    tensorgate = os.path.join(build, "cli", "tensorgate")
    cmd = [tensorgate, "check", "--format", "json", path]
    checked = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)["files"][0]
    assert checked["valid"], checked["findings"][:3]
    return cmd, checked["summary"]


def parse_speed(tmp):
    xml = os.path.join(tmp, "model.xml")
    bin_size, n = write_model(xml, layers, [64, 64])
    with open(os.path.join(tmp, "model.bin"), "wb") as f:
        f.truncate(bin_size)
    cmd, s = check(xml)
    assert s["layers"] == n and s["bin_size"] == bin_size, s
    print(f"model.xml: {os.path.getsize(xml):,} bytes, {n:,} layers, {s['consts']:,} Consts")
    ours, theirs, raw = [], [], []
    with open(xml, "rb") as f:
        text = f.read()
    for _ in range(rounds):
        ours.append(run(cmd))
        w, c = time.perf_counter(), time.process_time()
        ET.parse(xml)
        theirs.append((time.perf_counter() - w, time.process_time() - c))
        p = expat.ParserCreate()
        w, c = time.perf_counter(), time.process_time()
        p.Parse(text, True)
        raw.append((time.perf_counter() - w, time.process_time() - c))
    for i, what in ((0, "wall"), (1, "CPU")):
        a, b, r = [t[i] for t in ours], [t[i] for t in theirs], [t[i] for t in raw]
        print(f"  {what}: tensorgate check (whole process)      {ms(a)}")
        print(f"  {what}: ElementTree.parse (in process)         {ms(b)}")
        print(f"  {what}: expat alone, no handlers (in process)  {ms(r)}")
        print(f"  {what}: ratio ElementTree / tensorgate = {statistics.median(b) / statistics.median(a):.1f}x, "
              f"expat alone / tensorgate = {statistics.median(r) / statistics.median(a):.2f}x (medians of {rounds})")


def pair_speed(tmp):
    xml = os.path.join(tmp, "big.xml")
    dims = [2048, 512]  # 4 MiB a Const
    bin_size, _ = write_model(xml, 2 * big_consts + 2, dims)
    binp = os.path.join(tmp, "big.bin")
    with open(binp, "wb") as f:
        f.truncate(bin_size)
    cmd, s = check(xml)
    assert s["bin_size"] == bin_size
    yard = os.path.join(tmp, "stat_and_read")
    with open(yard + ".c", "w") as f:
        f.write(YARDSTICK)
    subprocess.run(["cc", "-O2", "-o", yard, yard + ".c"], check=True)
    other = [yard, xml, binp]
    print(f"pair: big.xml {os.path.getsize(xml):,} bytes, big.bin {bin_size:,} bytes ({s['consts']} Consts)")
    run(cmd), run(other)  # warm
    a, b = [], []
    for _ in range(pairs):
        a.append(run(cmd))
        b.append(run(other))
    for i, what in ((0, "wall"), (1, "CPU")):
        x, y = [t[i] for t in a], [t[i] for t in b]
        ratios = [p / q for p, q in zip(x, y) if q > 0]
        print(f"  {what}: tensorgate check   {ms(x)}")
        print(f"  {what}: stat + read xml    {ms(y)}")
        print(f"  {what}: ratio (pair by pair) median {statistics.median(ratios):.3f}x")


def main():
    with tempfile.TemporaryDirectory(dir=opts.get("dir") or None) as tmp:
        parse_speed(tmp)
        pair_speed(tmp)


main()
