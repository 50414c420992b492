#!/usr/bin/env python3
"""Regenerates the seed corpora corpus/<target>/seed-* from the test suite's sample files
(tests/support/samples.cpp, written by the write_samples tool) and chat templates
(tests/data/chat_templates/). Regressions under corpus/<target>/regressions/ are kept. Files
above 256 KiB are left out of the seeds.

usage: fuzz/make_seeds.py BUILD_DIR        (e.g. build/release)
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_SEED = 256 * 1024


def seeds_of(target):
    path = os.path.join(ROOT, "corpus", target)
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.startswith("seed-"):
            os.remove(os.path.join(path, name))
    return path


def write(directory, name, data):
    with open(os.path.join(directory, "seed-" + name), "wb") as f:
        f.write(data)


def main():
    build = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([os.path.join(build, "tests", "write_samples"), tmp], check=True)
        samples = {}
        for name in sorted(os.listdir(tmp)):
            if name.endswith(".safetensors") and os.path.getsize(os.path.join(tmp, name)) <= MAX_SEED:
                with open(os.path.join(tmp, name), "rb") as f:
                    samples[name[: -len(".safetensors")]] = f.read()
    dirs = {t: seeds_of(t) for t in ("safetensors_fuzzer", "safetensors_chunking_fuzzer", "roundtrip_fuzzer",
                                     "header_json_fuzzer", "header_route_fuzzer", "cli_report_fuzzer",
                                     "gguf_chunking_fuzzer")}
    # GGUF seeds come from corpus/gguf_fuzzer/ (tests/tools/write_gguf_seeds keeps it current).
    gguf_dir = os.path.join(ROOT, "corpus", "gguf_fuzzer")
    gguf = {}
    for name in sorted(os.listdir(gguf_dir)):
        if name.endswith(".gguf"):
            with open(os.path.join(gguf_dir, name), "rb") as f:
                gguf[name[: -len(".gguf")]] = f.read()
    path = b"dir/\xff\x01model.safetensors"  # 21 bytes: invalid UTF-8 and a control byte
    for name, data in samples.items():
        write(dirs["safetensors_fuzzer"], name, data)
        write(dirs["roundtrip_fuzzer"], name, data)
        write(dirs["cli_report_fuzzer"], name, bytes([len(path)]) + path + data)
        cuts = [4, 9, min(len(data) // 2, 65535)]
        write(dirs["safetensors_chunking_fuzzer"], name, bytes([len(cuts)]) + b"".join(struct.pack("<H", c) for c in cuts) + data)
        if len(data) >= 8:
            n = struct.unpack("<Q", data[:8])[0]
            if n <= len(data) - 8:
                write(dirs["header_json_fuzzer"], name, data[8 : 8 + n])
                write(dirs["header_route_fuzzer"], name, data[8 : 8 + n])
    gguf_path = b"dir/model.gguf"
    for name, data in gguf.items():
        cuts = [4, 24, min(len(data) // 2, 65535)]
        write(dirs["gguf_chunking_fuzzer"], name, bytes([len(cuts)]) + b"".join(struct.pack("<H", c) for c in cuts) + data)
        write(dirs["cli_report_fuzzer"], "gguf-" + name, bytes([len(gguf_path)]) + gguf_path + data)
    templates = chat_template_seeds()
    print(f"{len(samples)} safetensors and {len(gguf)} GGUF samples, {templates} chat templates -> seeds in " +
          ", ".join(sorted(dirs) + ["chat_template_fuzzer"]))


# Templates the test data leaves out but the dictionary names: a + block end, Unicode spaces,
# invalid UTF-8, attr through map.
EXTRA_TEMPLATES = {
    "plus_and_spaces": "{%+ if x +%}{{\u3000x\u3000}}{%\u3000raw\u3000%}{{ __x }}{% endraw %}{% endif %}".encode("utf-8"),
    "invalid_utf8": b"{{ x._\xff_class__ }}{\xff{ config.items() }}",
    "raw_plain": b"{% raw %}{{ x.__class__ }}{% endraw %}{{ y }}",
    "map_attr": b"{{ xs|map('attr', '\\x5f\\x5fclass\\x5f\\x5f')|list }}{{ xs|selectattr(n) }}",
}


def chat_template_seeds():
    """corpus/chat_template_fuzzer: byte 0 = cuts (low 4 bits) and the kind (0x10: JSON)."""
    out = seeds_of("chat_template_fuzzer")
    data_dir = os.path.join(ROOT, "tests", "data", "chat_templates")
    templates = dict(EXTRA_TEMPLATES)
    for sub in ("benign", "hostile"):
        for name in sorted(os.listdir(os.path.join(data_dir, sub))):
            with open(os.path.join(data_dir, sub, name), "rb") as f:
                templates[sub + "_" + name[: -len(".jinja")]] = f.read()
    for name, text in sorted(templates.items()):
        cuts = [3, min(len(text) // 2, 65535)]
        header = bytes([len(cuts)]) + b"".join(struct.pack("<H", c) for c in cuts)
        write(out, name, header + text)
        if name.startswith("hostile_") or name in ("benign_chatml", "benign_llama3"):
            as_text = text.decode("utf-8")
            as_string = json.dumps({"bos_token": "<s>", "chat_template": as_text}).encode()
            as_list = json.dumps({"chat_template": [{"name": "default", "template": "{{ m }}"},
                                                    {"template": as_text, "name": "tool_use"}]}).encode()
            write(out, "json_" + name, bytes([0x10 | len(cuts)]) + header[1:] + as_string)
            write(out, "json_list_" + name, bytes([0x10 | len(cuts)]) + header[1:] + as_list)
    return len(templates)


if __name__ == "__main__":
    main()
