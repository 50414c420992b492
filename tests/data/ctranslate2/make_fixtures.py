#!/usr/bin/env python3
"""Writes the CTranslate2 fixtures of tests/ctranslate2_test.cpp (run with /usr/bin/python3).

CTranslate2's writer is not installed here; the files are built from its published layout:
  - model.bin of binary version 6: python/ctranslate2/specs/model_spec.py of OpenNMT/CTranslate2,
    ModelSpec._serialize (uint32 version, the spec name, uint32 revision, uint32 variable count;
    per variable its name, uint8 rank, uint32 dims, uint8 DataType id, uint32 byte count, the
    bytes; uint32 alias count, per alias two strings) with its _write_string (uint16 length
    counting a trailing NUL, the bytes, the NUL) and _dtype_to_type_id (the DataType order of
    include/ctranslate2/types.h);
  - versions 1 to 3: src/models/model.cc of the same project, Model::load (no spec name before
    version 2, no aliases before version 3, an item size and an element count before version 4);
  - the model directory: what ModelSpec.save and WhisperSpec write beside model.bin
    (config.json, vocabulary.json), and what faster-whisper's models on the hub add
    (tokenizer.json, preprocessor_config.json).
Every file is little-endian, as the writer's struct.pack("I") on the machines it runs on.
"""
import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPE_IDS = {"float32": 0, "int8": 1, "int16": 2, "int32": 3, "float16": 4, "bfloat16": 5}


def string(s, nul=True, length=None):
    b = s.encode("utf-8") + (b"\0" if nul else b"")
    return struct.pack("<H", len(b) if length is None else length) + b


def variable(name, array, version=6, dtype_id=None, count=None, rank=None, dims=None, data=None):
    """One variable record and its bytes; the optional arguments make it wrong."""
    shape = list(array.shape) if dims is None else dims
    out = string(name) + struct.pack("<B", len(shape) if rank is None else rank)
    out += b"".join(struct.pack("<I", d) for d in shape)
    data = array.tobytes() if data is None else data
    if version >= 4:
        out += struct.pack("<B", DTYPE_IDS[array.dtype.name] if dtype_id is None else dtype_id)
        out += struct.pack("<I", len(data) if count is None else count)
    else:
        out += struct.pack("<B", array.dtype.itemsize) + struct.pack("<I", array.size if count is None else count)
    return out + data


def model(version, spec, revision, variables, aliases=(), alias_count=None):
    out = struct.pack("<I", version)
    if version >= 2:
        out += string(spec) + struct.pack("<I", revision)
    out += struct.pack("<I", len(variables)) + b"".join(variables)
    if version >= 3:
        out += struct.pack("<I", len(aliases) if alias_count is None else alias_count)
        out += b"".join(string(a) + string(t) for a, t in aliases)
    return out


def whisper_variables():
    rng = np.random.default_rng(7)
    f16 = lambda *s: rng.standard_normal(s).astype(np.float16)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)
    # In name order, as ModelSpec.variables(ordered=True) gives them; the projection is the
    # embedding's alias (the writer's _alias_variables keeps the first name of equal values).
    return [
        variable("decoder/embeddings/weight", f16(8, 4)),
        variable("decoder/layer_0/self_attention/linear_0/weight", rng.integers(-127, 127, (12, 4)).astype(np.int8)),
        variable("decoder/layer_0/self_attention/linear_0/weight_scale", f32(12)),
        variable("decoder/scale_embeddings", np.array(1, dtype=np.int8)),
        variable("encoder/conv1/bias", f32(4)),
        variable("encoder/conv1/weight", f16(4, 3, 3)),
        variable("encoder/position_encodings/encodings", f32(6, 4)),
        variable("encoder/start_tokens", np.array([50258, 50259], dtype=np.int32)),
    ]


WHISPER_ALIASES = [("decoder/projection/weight", "decoder/embeddings/weight")]


def old_variables(version):
    rng = np.random.default_rng(3)
    # Before version 4 an item size: float32 (4), int16 (2), int8 (1).
    return [
        variable("encoder/embeddings/weight", rng.standard_normal((5, 4)).astype(np.float32), version),
        variable("encoder/layer_0/ffn/linear_0/weight", rng.integers(-100, 100, (4, 4)).astype(np.int16), version),
        variable("encoder/layer_0/ffn/linear_0/weight_scale", rng.integers(-100, 100, (4,)).astype(np.int8), version),
    ]


def fixtures():
    whisper = whisper_variables()
    good = model(6, "WhisperSpec", 3, whisper, WHISPER_ALIASES)
    f = {
        "whisper_v6.bin": good,
        "transformer_v1.bin": model(1, "", 0, old_variables(1)),
        "transformer_v2.bin": model(2, "TransformerSpec", 1, old_variables(2)),
        "transformer_v3.bin": model(3, "TransformerSpec", 1, old_variables(3), [("decoder/embeddings/weight", "encoder/embeddings/weight")]),
        "whisper_v4.bin": model(4, "WhisperSpec", 1, whisper, WHISPER_ALIASES),
        # CTR.version
        "bad_version.bin": struct.pack("<I", 7) + good[4:],
        "version_zero.bin": struct.pack("<I", 0) + good[4:],
        # CTR.header
        "empty_spec.bin": struct.pack("<I", 6) + struct.pack("<H", 0) + good[4 + 2 + 12:],
        "spec_unterminated.bin": model(6, "WhisperSpec", 3, whisper, WHISPER_ALIASES).replace(b"WhisperSpec\0", b"WhisperSpecX", 1),
        "too_many_variables.bin": struct.pack("<I", 6) + string("WhisperSpec") + struct.pack("<II", 3, (1 << 20) + 1),
        # CTR.variable
        "wrong_byte_count.bin": model(6, "WhisperSpec", 3, [variable("w", np.zeros((2, 3), np.float16), count=10, data=b"\0" * 10)], []),
        "rank9.bin": model(6, "WhisperSpec", 3, [variable("w", np.zeros([1] * 9, np.float32))]),
        "long_name.bin": model(6, "WhisperSpec", 3, [variable("n" * 4097, np.zeros(2, np.float32))]),
        "bad_dtype.bin": model(6, "WhisperSpec", 3, [variable("w", np.zeros(2, np.float32), dtype_id=6)]),
        "bad_item_size.bin": model(3, "TransformerSpec", 1, [variable("w", np.zeros(2, np.float64), version=3)]),
        "duplicate_name.bin": model(6, "WhisperSpec", 3, [variable("w", np.zeros(2, np.float32)), variable("w", np.ones(2, np.float32))]),
        "empty_name_length.bin": model(6, "WhisperSpec", 3, [struct.pack("<H", 0) + variable("w", np.zeros(2, np.float32))[4:]]),
        # CTR.alias
        "missing_alias.bin": model(6, "WhisperSpec", 3, whisper, [("decoder/projection/weight", "decoder/embedding/weight")]),
        "alias_shadows.bin": model(6, "WhisperSpec", 3, whisper, [("encoder/conv1/bias", "decoder/embeddings/weight")]),
        # CTR.truncated: inside a variable's data, and inside the aliases
        "truncated.bin": good[: len(good) - 200],
        "truncated_alias.bin": good[:-5],
        # CTR.trailing
        "trailing.bin": good + b"\0\0\0\0extra",
    }
    return f


def whisper_directory(path, model_bin):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "model.bin"), "wb") as out:
        out.write(model_bin)
    # WhisperSpec's config (python/ctranslate2/specs/whisper_spec.py, WhisperConfig) as
    # save_as_json writes it.
    config = {
        "alignment_heads": [[0, 1]],
        "lang_ids": [50259, 50260],
        "suppress_ids": [1, 2, 7],
        "suppress_ids_begin": [220, 50257],
    }
    with open(os.path.join(path, "config.json"), "w") as out:
        json.dump(config, out, indent=2)
        out.write("\n")
    # _save_vocabulary writes vocabulary.json (a list of tokens) where a spec has one vocabulary.
    with open(os.path.join(path, "vocabulary.json"), "w") as out:
        json.dump(["!", "\"", "#", "<|endoftext|>", "<|startoftranscript|>"], out)
    with open(os.path.join(path, "tokenizer.json"), "w") as out:
        json.dump({"version": "1.0", "model": {"type": "BPE", "vocab": {"!": 0}, "merges": []}}, out)
    with open(os.path.join(path, "preprocessor_config.json"), "w") as out:
        json.dump({"feature_size": 80, "n_fft": 400, "hop_length": 160, "sampling_rate": 16000}, out)


def main():
    for name, data in fixtures().items():
        with open(os.path.join(HERE, name), "wb") as out:
            out.write(data)
    whisper_directory(os.path.join(HERE, "faster-whisper-tiny"), fixtures()["whisper_v6.bin"])


if __name__ == "__main__":
    main()
