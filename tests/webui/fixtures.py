"""The files the browser test uploads, written with the standard library only.

Weights are written sparse where they are large (the header, then a hole: the service only
counts data bytes), so a 400 MB upload costs no disk and no time to write.

make_all(directory) returns a dict of name -> path (files) or directory (repositories).
"""
import json
import os
import struct

import onnx_model

# The canonical writer's dtype order (docs/rules.md, STC1.tensor-order), for canonical files.
DTYPE_ORDER = ["U64", "I64", "F64", "C64", "F32", "U32", "I32", "BF16", "F16", "U16", "I16",
               "F8_E5M2FNUZ", "F8_E4M3FNUZ", "F8_E8M0", "F8_E4M3", "F8_E5M2", "I8", "U8",
               "F6_E3M2", "F6_E2M3", "F4", "BOOL"]
DTYPE_BYTES = {"F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "BF16": 2, "F16": 2,
               "I16": 2, "U16": 2, "I8": 1, "U8": 1, "BOOL": 1}

# Strings that break a page which puts data into HTML, URLs or a terminal.
HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(2)</script>",
    "javascript:alert(3)",
    "evil\u202egnp.exe",           # right-to-left override
    "\x1b[31mred\x1b[0m",          # ANSI escape
    "\" onmouseover=\"alert(4)",
]


def nbytes(dtype, shape):
    n = DTYPE_BYTES[dtype]
    for d in shape:
        n *= d
    return n


def canonical_order(tensors):
    return sorted(tensors, key=lambda t: (DTYPE_ORDER.index(t[1]), t[0].encode()))


def hundred_thousand():
    return [(f"blocks.{i // 10}.experts.{i % 10}.weight", "F16" if i % 3 else "F32", [4, 2]) for i in range(100_000)]


def safetensors(tensors, metadata=None, canonical=True, entry_patch=None):
    """Header bytes and total file size for [(name, dtype, shape)], laid out without gaps.

    entry_patch(name, entry) may change an entry after layout (to make an invalid file)."""
    if canonical:
        tensors = canonical_order(tensors)
    header, offset = {}, 0
    if metadata:
        header["__metadata__"] = dict(sorted(metadata.items(), key=lambda kv: kv[0].encode()))
    for name, dtype, shape in tensors:
        size = nbytes(dtype, shape)
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        if entry_patch:
            entry_patch(name, header[name])
        offset += size
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text, 8 + len(text) + offset


def write_sparse(path, head, total):
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(total)
    return path


def llama(layers, hidden, intermediate, heads, kv_heads, head_dim, vocab, dtype="BF16", tied=False):
    q, kv = heads * head_dim, kv_heads * head_dim
    t = [("model.embed_tokens.weight", dtype, [vocab, hidden]), ("model.norm.weight", "F32", [hidden])]
    for i in range(layers):
        p = f"model.layers.{i}."
        t += [(p + "self_attn.q_proj.weight", dtype, [q, hidden]),
              (p + "self_attn.k_proj.weight", dtype, [kv, hidden]),
              (p + "self_attn.v_proj.weight", dtype, [kv, hidden]),
              (p + "self_attn.o_proj.weight", dtype, [hidden, q]),
              (p + "mlp.gate_proj.weight", dtype, [intermediate, hidden]),
              (p + "mlp.up_proj.weight", dtype, [intermediate, hidden]),
              (p + "mlp.down_proj.weight", dtype, [hidden, intermediate]),
              (p + "input_layernorm.weight", "F32", [hidden]),
              (p + "post_attention_layernorm.weight", "F32", [hidden])]
    if not tied:
        t.append(("lm_head.weight", dtype, [vocab, hidden]))
    config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": layers,
              "hidden_size": hidden, "intermediate_size": intermediate, "num_attention_heads": heads,
              "num_key_value_heads": kv_heads, "head_dim": head_dim, "vocab_size": vocab,
              "tie_word_embeddings": tied, "rms_norm_eps": 1e-5}
    return t, config


# GGUF (docs: the GGUF rules GG1-GG5): little-endian, version 3, 32-byte alignment.
GGML = {"F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_K": (12, 256, 144), "Q6_K": (14, 256, 210)}  # id, block, bytes


def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf_value(v):
    if isinstance(v, str):
        return struct.pack("<I", 8) + gguf_string(v)
    if isinstance(v, list):
        return struct.pack("<IIQ", 9, 8, len(v)) + b"".join(gguf_string(x) for x in v)
    return struct.pack("<II", 4, v)  # uint32


def gguf(metadata, tensors):
    """Bytes of a GGUF file: metadata {key: str|int|[str]}, tensors [(name, type, dims)] (dims
    in ggml's order, the fastest first), data zeros."""
    out = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(metadata))
    for k, v in metadata.items():
        out += gguf_string(k) + gguf_value(v)
    offset, sizes = 0, []
    for name, kind, dims in tensors:
        type_id, block, size = GGML[kind]
        n = 1
        for d in dims:
            n *= d
        sizes.append(n // block * size)
        out += gguf_string(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
        out += struct.pack("<IQ", type_id, offset)
        offset += (sizes[-1] + 31) // 32 * 32
    out += b"\0" * ((32 - len(out) % 32) % 32)
    for size in sizes:
        out += b"\0" * ((size + 31) // 32 * 32)
    return out


def write_repository(directory, tensors, config, shards, break_index=False):
    """A Hugging Face style sharded checkpoint: config, index, shards, tokenizer files."""
    os.makedirs(directory, exist_ok=True)
    weight_map, total = {}, 0
    for k in range(shards):
        name = f"model-{k + 1:05d}-of-{shards:05d}.safetensors"
        part = tensors[k::shards]
        for t in part:
            weight_map[t[0]] = name
            total += nbytes(t[1], t[2])
        head, size = safetensors(part, {"format": "pt"})
        write_sparse(os.path.join(directory, name), head, size)
    if break_index:  # one tensor said to be in the other shard, and a wrong total
        first = tensors[0][0]
        weight_map[first] = "model-00002-of-00002.safetensors"
        total += 1
    index = {"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}
    with open(os.path.join(directory, "model.safetensors.index.json"), "w") as f:
        json.dump(index, f, indent=2)
    with open(os.path.join(directory, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(directory, "tokenizer.json"), "w") as f:
        json.dump({"version": "1.0", "model": {"type": "BPE", "vocab": {}}}, f)
    with open(os.path.join(directory, "generation_config.json"), "w") as f:
        json.dump({"bos_token_id": 1, "eos_token_id": 2}, f)
    return directory


def make_all(out):
    os.makedirs(out, exist_ok=True)
    files = {}

    # A valid, canonical llama of ~100 MB (sparse): large enough for several progress events.
    tensors, _ = llama(layers=2, hidden=1024, intermediate=2816, heads=8, kv_heads=2, head_dim=128, vocab=8000)
    head, size = safetensors(tensors, {"format": "pt", "producer": "tensorgate browser test"})
    files["valid"] = write_sparse(os.path.join(out, "tiny-llama.safetensors"), head, size)

    # Invalid in three ways: an unknown dtype, a shape that does not match its bytes, and data
    # that overlaps the tensor before it; small, so the whole file is read.
    def breakage(name, entry):
        if name == "model.layers.0.mlp.up_proj.weight":
            entry["dtype"] = "F3X"
        if name == "model.norm.weight":
            entry["shape"] = [7, 3]
        if name == "model.layers.1.input_layernorm.weight":
            entry["data_offsets"] = [entry["data_offsets"][0] - 4, entry["data_offsets"][1] - 4]
    small, _ = llama(layers=2, hidden=64, intermediate=128, heads=4, kv_heads=2, head_dim=16, vocab=100)
    head, size = safetensors(small, {"format": "pt"}, entry_patch=breakage)
    with open(os.path.join(out, "broken.safetensors"), "wb") as f:
        f.write(head + b"\0" * (size - len(head)))
    files["invalid"] = os.path.join(out, "broken.safetensors")

    # Invalid in its header, with 256 MiB of data behind it: the verdict comes early.
    def bad_dtype(name, entry):
        if name == "model.embed_tokens.weight":
            entry["dtype"] = "Q4X"
    head, _ = safetensors([("model.embed_tokens.weight", "F32", [65536, 1024])], {"format": "pt"},
                          entry_patch=bad_dtype)
    files["early"] = write_sparse(os.path.join(out, "early-verdict.safetensors"), head, len(head) + (256 << 20))

    # 100,000 tensors: the inventory must stay usable.
    head, size = safetensors(hundred_thousand(), {"format": "pt"})
    files["many"] = write_sparse(os.path.join(out, "hundred-thousand.safetensors"), head, size)

    # Hostile names and metadata in a valid file, and in an invalid one (they reach messages).
    hostile = [(f"{s}.{i}", "F32", [2]) for i, s in enumerate(HOSTILE)]
    metadata = {f"{s}": s + " value" for s in HOSTILE}
    head, size = safetensors(hostile, metadata, canonical=False)
    files["hostile"] = write_sparse(os.path.join(out, "hostile.safetensors"), head, size)

    def hostile_dtype(name, entry):
        if name.startswith(HOSTILE[0]):
            entry["dtype"] = HOSTILE[1]
        if name.startswith(HOSTILE[3]):
            entry["dtype"] = HOSTILE[4]
    head, size = safetensors(hostile, metadata, canonical=False, entry_patch=hostile_dtype)
    files["hostile_invalid"] = write_sparse(os.path.join(out, "hostile-invalid.safetensors"), head, size)

    # A quantised GGUF llama: its facts (context length, vocabulary, quantisation mix).
    meta = {"general.architecture": "llama", "general.name": "Tiny GGUF Llama", "general.file_type": 15,
            "general.quantization_version": 2, "llama.context_length": 4096, "llama.block_count": 1,
            "llama.embedding_length": 256, "tokenizer.ggml.model": "gpt2",
            "tokenizer.ggml.tokens": [f"tok{i}" for i in range(32)],
            "tokenizer.chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"}
    tensors = [("token_embd.weight", "Q4_K", [256, 32]), ("blk.0.attn_norm.weight", "F32", [256]),
               ("blk.0.attn_q.weight", "Q6_K", [256, 256]), ("blk.0.ffn_up.weight", "Q4_K", [256, 512]),
               ("output_norm.weight", "F32", [256]), ("output.weight", "Q6_K", [256, 32])]
    files["gguf"] = os.path.join(out, "tiny-llama-Q4_K_M.gguf")
    with open(files["gguf"], "wb") as f:
        f.write(gguf(meta, tensors))

    # Above the test server's --max-body-bytes (test_webui.py): a 413 before the body.
    files["too_large"] = write_sparse(os.path.join(out, "too-large.safetensors"), b"", 400 << 20)

    # A pickle that runs os.system('id') when loaded (GLOBAL, then REDUCE), under a checkpoint's
    # name, and a Git LFS pointer where the weights should be.
    files["pickle"] = os.path.join(out, "pytorch_model.bin")
    with open(files["pickle"], "wb") as f:
        f.write(b"\x80\x02cos\nsystem\nX\x02\x00\x00\x00id\x85R.")
    files["lfs"] = os.path.join(out, "model.safetensors")
    with open(files["lfs"], "wb") as f:
        f.write(b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"a" * 64 + b"\nsize 1000\n")

    # An ONNX model: its op types make the page's op-type chart.
    files["onnx"] = os.path.join(out, "mlp.onnx")
    with open(files["onnx"], "wb") as f:
        f.write(onnx_model.mlp())

    # A SavedModel TensorFlow wrote (tests/data/savedmodel/): its graph's ops make the same chart.
    files["savedmodel"] = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "data", "savedmodel",
                                                        "half_plus_two_tf2", "saved_model.pb"))

    # Sharded repositories: a consistent one and one whose index disagrees with its shards.
    tensors, config = llama(layers=4, hidden=256, intermediate=688, heads=4, kv_heads=2, head_dim=64, vocab=4000)
    files["repo"] = write_repository(os.path.join(out, "llama-sharded"), tensors, config, shards=2)
    files["repo_broken"] = write_repository(os.path.join(out, "llama-broken-index"), tensors, config, shards=2,
                                            break_index=True)
    return files


if __name__ == "__main__":
    import sys
    for k, v in make_all(sys.argv[1] if len(sys.argv) > 1 else "webui-fixtures").items():
        print(k, v)
