"""The differential run's inputs: the files in the fuzz corpora (unwrapped from each target's
input layout, fuzz/README.md), the samples, a few edge probes, and seeded mutations of them."""
import hashlib
import os
import random
import struct

# corpus directory -> (format, how its inputs hold a file)
CORPORA = {
    "safetensors_fuzzer": ("safetensors", "whole"),
    "safetensors_chunking_fuzzer": ("safetensors", "cuts"),
    "header_json_fuzzer": ("safetensors", "header"),
    "cli_report_fuzzer": (None, "path"),
    "gguf_fuzzer": ("gguf", "whole"),
    "gguf_chunking_fuzzer": ("gguf", "cuts"),
}


class Input:
    def __init__(self, label, fmt, data, needs_data=False):
        self.label, self.format, self.data = label, fmt, data
        self.needs_data = needs_data  # header_json: the data section its offsets declare, added later


def unwrap(layout, raw):
    """The file inside one fuzz input (fuzz/fuzz_support.hpp, fuzz/cli_report_fuzzer.cpp)."""
    if layout == "whole":
        return raw
    if layout == "cuts":  # byte 0: cuts (mod 16), then 2 bytes per cut
        return raw[min(len(raw), 1 + 2 * (raw[0] % 16)):] if raw else raw
    if layout == "path":  # byte 0 sizes a path (mod 24), then the file
        if not raw:
            return raw
        return raw[1 + min(raw[0] % 24, len(raw) - 1):]
    if layout == "header":  # header text only: the length prefix is added
        return struct.pack("<Q", len(raw)) + raw
    raise ValueError(layout)


def detect(data):
    return "gguf" if data[:4] == b"GGUF" else "safetensors"


def corpus_inputs(root):
    out = []
    for corpus, (fmt, layout) in CORPORA.items():
        base = os.path.join(root, "corpus", corpus)
        for d, _, names in os.walk(base):
            for n in sorted(names):
                if n.endswith(".note"):
                    continue
                with open(os.path.join(d, n), "rb") as f:
                    data = unwrap(layout, f.read())
                label = os.path.relpath(os.path.join(d, n), root)
                out.append(Input(label, fmt or detect(data), data, needs_data=layout == "header"))
    samples = os.path.join(root, "samples")
    for n in sorted(os.listdir(samples)):
        if n.endswith(".safetensors") or n.endswith(".gguf"):
            with open(os.path.join(samples, n), "rb") as f:
                out.append(Input("samples/" + n, "gguf" if n.endswith(".gguf") else "safetensors", f.read()))
    return out


def _st(header):
    return struct.pack("<Q", len(header)) + header


def probes():
    """Edge files for the differences the rules document, so a run checks them even when no
    corpus input happens to hold them."""
    out = []
    tensor = b'"t":{"dtype":"U8","shape":[1],"data_offsets":[0,1]'
    for depth in (126, 127, 128, 129):
        # The top-level object is level 1, the entry level 2, the unknown field's arrays the rest.
        arrays = depth - 2
        h = b"{" + tensor + b',"x":' + b"[" * arrays + b"]" * arrays + b"}}"
        out.append(Input("probe/json-depth-%d" % depth, "safetensors", _st(h) + b"\0"))
    meta = b'{"__metadata__":{"a":"1"},"__metadata__":{"b":"2"},' + tensor + b"}}"
    out.append(Input("probe/duplicate-metadata", "safetensors", _st(meta) + b"\0"))
    dup = b"{" + tensor + b"}," + tensor + b"}}"
    out.append(Input("probe/duplicate-tensor", "safetensors", _st(dup) + b"\0"))
    for pad, name in ((b" ", "space"), (b"\t", "tab"), (b"\n", "newline"), (b"\0", "nul")):
        h = b"{" + tensor + b"}}" + pad * 3
        out.append(Input("probe/padding-" + name, "safetensors", _st(h) + b"\0"))
    for number, name in ((b"1.0", "fraction"), (b"1e0", "exponent"), (b"-0", "minus-zero")):
        h = b'{"t":{"dtype":"U8","shape":[' + number + b'],"data_offsets":[0,1]}}'
        out.append(Input("probe/shape-" + name, "safetensors", _st(h) + b"\0"))
    return out


# --- mutations --------------------------------------------------------------------------------

TOKENS = [b'"', b"{", b"}", b"[", b"]", b",", b":", b"\\", b"0", b"-", b".", b"e", b" ", b"\t", b"\n",
          b"\0", b"\xff", b"\xc3", b"1e0", b"-0", b"1.0", b"\\u0000", b"\\ud800", b'"__metadata__"',
          b"[[[[", b"null", b"true", b'"dtype"', b'"shape"', b'"data_offsets"', b"18446744073709551616"]
U64S = [0, 1, 2, 7, 8, 255, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1]


def _mutate_bytes(rng, b):
    b = bytearray(b)
    op = rng.randrange(6)
    if not b:
        return bytes(rng.choice(TOKENS)), "insert"
    i = rng.randrange(len(b))
    if op == 0:
        b[i] ^= 1 << rng.randrange(8)
        return bytes(b), "flip@%d" % i
    if op == 1:
        t = rng.choice(TOKENS)
        return bytes(b[:i] + t + b[i:]), "insert@%d" % i
    if op == 2:
        t = rng.choice(TOKENS)
        return bytes(b[:i] + t + b[i + len(t):]), "overwrite@%d" % i
    if op == 3:
        n = rng.randrange(1, 9)
        return bytes(b[:i] + b[i + n:]), "delete@%d+%d" % (i, n)
    if op == 4:
        n = rng.randrange(1, 33)
        return bytes(b[:i] + b[i:i + n] + b[i:]), "duplicate@%d+%d" % (i, n)
    return bytes(b[:i]), "truncate@%d" % i


# The reference reader's dtypes and their sizes in bits.
DTYPE_BITS = {"BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8,
              "F8_E8M0": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8, "I16": 16, "U16": 16, "F16": 16,
              "BF16": 16, "I32": 32, "U32": 32, "F32": 32, "C64": 64, "F64": 64, "I64": 64, "U64": 64}
ODD_DTYPES = ["f32", "U9", "", "F8", "F8_E4M3FN", "Q4_0"]
DIMS = [0, 1, 2, 3, 5, 7, 8, 9, 2**31, 2**32, 2**62, 2**63, 2**64 - 1]
MAX_SEMANTIC_DATA = 1 << 20


def _tile(entries):
    """Offsets that tile the data buffer for the entries' dtypes and shapes (the product rounded
    up to whole bytes); None when the data would be too large."""
    at = 0
    for e in entries.values():
        if not isinstance(e, dict) or not isinstance(e.get("shape"), list) or not isinstance(e.get("dtype"), str) or e["dtype"] not in DTYPE_BITS:
            continue
        if not all(isinstance(d, int) and d >= 0 for d in e["shape"]):
            continue
        n = 1
        for d in e["shape"]:
            n *= d
        size = (n * DTYPE_BITS[e["dtype"]] + 7) // 8
        e["data_offsets"] = [at, at + size]
        at += size
    return at if at <= MAX_SEMANTIC_DATA else None


def _semantic(rng, header):
    """A mutation of the header's meaning rather than its bytes: dtypes, shapes, offsets, fields,
    metadata; the data section is then made to fit when that is cheap. None when the header is
    not a JSON object."""
    import json
    try:
        obj = json.loads(header.decode("utf-8"), object_pairs_hook=dict)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(obj, dict):
        return None
    names = [k for k, v in obj.items() if k != "__metadata__" and isinstance(v, dict)]
    op = rng.randrange(8)
    how = "semantic"
    if names and op == 0:
        name = rng.choice(names)
        obj[name]["dtype"] = rng.choice(list(DTYPE_BITS) + ODD_DTYPES)
        how = "dtype %s" % obj[name]["dtype"]
    elif names and op == 1:
        name = rng.choice(names)
        obj[name]["shape"] = [rng.choice(DIMS) for _ in range(rng.randrange(5))]
        how = "shape %s" % obj[name]["shape"]
    elif names and op == 2:
        name = rng.choice(names)
        offsets = obj[name].get("data_offsets")
        if isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(x, int) for x in offsets):
            i = rng.randrange(2)
            offsets[i] = max(0, offsets[i] + rng.choice((-1, 1, 8, -8, 2**64)))
        how = "offsets %s" % offsets
    elif names and op == 3:
        name = rng.choice(names)
        field = rng.choice(["dtype", "shape", "data_offsets"])
        obj[name].pop(field, None)
        how = "no %s" % field
    elif names and op == 4:
        name = rng.choice(names)
        obj[name][rng.choice(["x", "offsets", "Dtype"])] = rng.choice([1, "a", None, [], {}])
        how = "unknown field"
    elif op == 5:
        obj["__metadata__"] = rng.choice([{}, {"a": "b"}, {"a": 1}, {"a": None}, None, [], "s", {"": ""}])
        how = "metadata %r" % (obj["__metadata__"],)
    elif names and op == 6:
        name = rng.choice(names)
        obj[name] = rng.choice([[], "x", None, 1, [obj[name].get("dtype"), obj[name].get("shape"), obj[name].get("data_offsets")]])
        how = "entry %r" % (obj[name],)
    data = None
    if op in (0, 1) and rng.random() < 0.7:  # offsets that fit the new dtype or shape
        size = _tile({k: v for k, v in obj.items() if k != "__metadata__"})
        if size is not None:
            data = bytes(size)
    text = json.dumps(obj, separators=(",", ":") if rng.random() < 0.7 else (", ", ": "), ensure_ascii=rng.random() < 0.5)
    raw = text.encode("utf-8", "surrogatepass")
    raw += b" " * (-len(raw) % 8)
    return raw, data, how


def mutate(rng, inp):
    """One mutation of an input: the safetensors header text (its length prefix rewritten), or
    GGUF counts and bytes."""
    data = inp.data
    if inp.format == "safetensors" and len(data) >= 8:
        n = struct.unpack("<Q", data[:8])[0]
        if 8 + n <= len(data) and rng.random() < 0.5:
            semantic = _semantic(rng, data[8:8 + n])
            if semantic:
                header, body, how = semantic
                return _st(header) + (data[8 + n:] if body is None else body), how
        if 8 + n <= len(data) and rng.random() < 0.8:
            header, how = _mutate_bytes(rng, data[8:8 + n])
            return _st(header) + data[8 + n:], "header " + how
    if inp.format == "gguf" and len(data) >= 24 and rng.random() < 0.4:
        at = rng.randrange(4, min(len(data), 256) - 7)
        v = rng.choice(U64S)
        width = rng.choice((4, 8))
        packed = struct.pack("<Q", v)[:width]
        return data[:at] + packed + data[at + width:], "u%d=%d@%d" % (width * 8, v, at)
    return _mutate_bytes(rng, data)


def mutated(inputs, count, seed):
    out = []
    for inp in inputs:
        rng = random.Random("%d:%s" % (seed, inp.label))
        for _ in range(count):
            data, how = mutate(rng, inp)
            how = how if len(how) <= 60 else how[:57] + "..."
            out.append(Input("%s ~ %s" % (inp.label, how), inp.format, data, inp.needs_data))
    return out


def unique(inputs):
    seen, out = set(), []
    for inp in inputs:
        key = hashlib.sha1(inp.format.encode() + inp.data).digest()
        if key not in seen:
            seen.add(key)
            out.append(inp)
    return out
