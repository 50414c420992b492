"""The files the remote-check tests serve, written by the tests themselves: sparse giants (a
10 GB safetensors file costs a few bytes of disk), a safetensors header past the first range
window, a GGUF whose metadata takes growing windows, and model repositories."""
import io
import json
import os
import pickle
import struct
import zipfile


def safetensors(path, tensors, data_size, extra_data=0):
    """`tensors`: name -> (dtype, shape, begin, end). The data section is sparse."""
    header = {name: {"dtype": d, "shape": s, "data_offsets": [b, e]} for name, (d, s, b, e) in tensors.items()}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        f.truncate(8 + len(text) + data_size + extra_data)


def gguf(path, tokens, elements):
    """GGUF v3: general.architecture, a tokenizer array of `tokens` strings (the metadata
    window), one F32 tensor of `elements` (its data sparse)."""
    def string(s):
        b = s.encode()
        return struct.pack("<Q", len(b)) + b
    kv = string("general.architecture") + struct.pack("<I", 8) + string("other")
    kv += string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, len(tokens)) + b"".join(map(string, tokens))
    info = string("weight") + struct.pack("<I", 1) + struct.pack("<Q", elements) + struct.pack("<IQ", 0, 0)
    head = b"GGUF" + struct.pack("<IQQ", 3, 1, 2) + kv + info
    head += b"\0" * (-len(head) % 32)
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(len(head) + 4 * elements)
    return len(head)


def repository(path, shards, index=None, config=None):
    """`shards`: file name -> {tensor: element count} (U8, tiled in order)."""
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(config or {"architectures": ["TinyThing"], "model_type": "tinything"}, f)
    total, weight_map = 0, {}
    for name, tensors in shards.items():
        table, offset = {}, 0
        for tensor, n in tensors.items():
            table[tensor] = ("U8", [n], offset, offset + n)
            offset += n
            weight_map[tensor] = name
        safetensors(os.path.join(path, name), table, offset)
        total += offset
    if index is not None or len(shards) > 1:
        doc = index or {"metadata": {"total_size": total}, "weight_map": weight_map}
        with open(os.path.join(path, "model.safetensors.index.json"), "w") as f:
            json.dump(doc, f)


class _System:
    """Pickles as os.system('id'): what a malicious pytorch_model.bin calls on load."""
    def __reduce__(self):
        return (os.system, ("id",))


def pickle_checkpoint(path, malicious, archive):
    """A pickled state dict (no tensors: lists of numbers), as torch.save's zip archive (data.pkl
    under a folder) or as a bare pickle stream; `malicious` adds an os.system call."""
    state = {"layer.weight": [0.5, 1.5], "layer.bias": [0.0]}
    if malicious:
        state["hook"] = _System()
    data = pickle.dumps(state, protocol=2)
    if archive:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
            z.writestr("archive/data.pkl", data)
            z.writestr("archive/version", "3\n")
        data = buf.getvalue()
    with open(path, "wb") as f:
        f.write(data)


def write_all(root):
    """Everything under `root`; returns facts the tests assert with."""
    ten_gb = 10_000_000_000
    safetensors(os.path.join(root, "big.safetensors"), {"weight": ("U8", [ten_gb], 0, ten_gb)}, ten_gb)
    safetensors(os.path.join(root, "big-truncated.safetensors"), {"weight": ("U8", [ten_gb], 0, ten_gb)}, ten_gb - 1)
    safetensors(os.path.join(root, "gigabyte.safetensors"), {"weight": ("U8", [10**9], 0, 10**9)}, 10**9)
    safetensors(os.path.join(root, "gigabyte-bad.safetensors"), {"weight": ("U9", [10**9], 0, 10**9)}, 10**9)
    many = {f"layer.{i}.weight": ("U8", [4], 4 * i, 4 * i + 4) for i in range(3000)}
    safetensors(os.path.join(root, "many.safetensors"), many, 4 * 3000)
    metadata = gguf(os.path.join(root, "model.gguf"), [f"token-{i:06d}" for i in range(30000)], 1 << 28)
    repository(os.path.join(root, "repo-sharded"), {
        "model-00001-of-00002.safetensors": {"a.weight": 1000, "b.weight": 24},
        "model-00002-of-00002.safetensors": {"c.weight": 4096}})
    repository(os.path.join(root, "repo-single"), {"model.safetensors": {"only.weight": 64}})
    repository(os.path.join(root, "repo-broken"), {"model-00001-of-00002.safetensors": {"a.weight": 8}},
               index={"metadata": {"total_size": 16}, "weight_map": {
                   "a.weight": "model-00002-of-00002.safetensors",
                   "b.weight": "../escape.safetensors",
                   "c.weight": "model-00001-of-00002.safetensors"}})
    # Pickle checkpoints: alone, beside a valid model.safetensors, and as shards of a bin index.
    repository(os.path.join(root, "repo-pickle"), {})
    pickle_checkpoint(os.path.join(root, "repo-pickle", "pytorch_model.bin"), malicious=True, archive=True)
    repository(os.path.join(root, "repo-both"), {"model.safetensors": {"only.weight": 64}})
    pickle_checkpoint(os.path.join(root, "repo-both", "pytorch_model.bin"), malicious=True, archive=False)
    bin_shards = os.path.join(root, "repo-bin-sharded")
    repository(bin_shards, {})
    for name in ("pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin"):
        pickle_checkpoint(os.path.join(bin_shards, name), malicious=False, archive=True)
    with open(os.path.join(bin_shards, "pytorch_model.bin.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 0}, "weight_map": {
            "a": "pytorch_model-00001-of-00002.bin", "b": "pytorch_model-00002-of-00002.bin",
            "c": "../escape.bin"}}, f)
    return {"gguf_metadata_bytes": metadata}
