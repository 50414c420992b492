#!/usr/bin/python3
"""The legacy GGML fixtures. Neither writer is installed, so the files are built here from the
writers' published layouts, with tiny dimensions:

- whisper.cpp's models: whisper.cpp's models/convert-pt-to-ggml.py (the writer) and
  src/whisper.cpp's whisper_model_load (the reader): magic 'ggml', 11 int32 hyperparameters,
  the mel filters (int32 n_mel, int32 n_fft, n_mel*n_fft float32), the vocabulary (int32 count,
  entries of int32 length + bytes), then tensor records (int32 n_dims, name length, type; the
  dims reversed from numpy's order; the name; the data), unaligned. A quantized model's ftype
  adds 1000 times ggml's quantization version (examples/common-ggml.cpp).
- llama.cpp's files before GGUF: llama.cpp's llama_file_loader / llama_file_saver (llama.cpp
  of August 2023) and convert_llama_ggml_to_gguf.py, which reads all three layouts: magic
  'ggml' (no version, vocabulary without scores), 'ggmf' v1 (scores), 'ggjt' v1-v3 (scores,
  each tensor's data at the next multiple of 32 bytes, the gap zeros as a seek leaves it);
  7 int32 hyperparameters (n_vocab, n_embd, n_mult, n_head, n_layer, n_rot, ftype).

Then hostile files, one or more per rule (see the end of this script).
Run from this folder with Debian's python3: /usr/bin/python3 make_fixtures.py
"""
import struct

import numpy as np

GGML, GGMF, GGJT = 0x67676D6C, 0x67676D66, 0x67676A74
F32, F16, Q4_0, Q4_1, Q5_0, Q8_0 = 0, 1, 2, 3, 6, 8


def i32(*values):
    return struct.pack("<%di" % len(values), *values)


def floats(n, start=0.1):
    # Values whose every byte is rarely zero (the alignment fixtures rely on it).
    return (start * (np.arange(n, dtype=np.float32) + 1)).astype("<f4").tobytes()


def quantized(n_elements, block, size):
    assert n_elements % block == 0
    blocks = n_elements // block
    return bytes((i * 7 + 3) % 251 for i in range(blocks * size))


def data_of(ttype, dims):
    n = int(np.prod(dims))
    if ttype == F32:
        return floats(n)
    if ttype == F16:
        return (0.1 * (np.arange(n) + 1)).astype("<f2").tobytes()
    return quantized(n, 32, {Q4_0: 18, Q4_1: 20, Q5_0: 22, Q8_0: 34}[ttype])


class Writer:
    def __init__(self):
        self.out = bytearray()

    def tensor(self, name, ttype, dims, aligned=False, data=None, n_dims=None, name_len=None):
        """dims in ggml's order (ne0 first), as the file holds them."""
        raw = name.encode()
        self.out += i32(len(dims) if n_dims is None else n_dims, len(raw) if name_len is None else name_len, ttype)
        self.out += i32(*dims)
        self.out += raw
        if aligned:
            self.out += bytes(-len(self.out) & 31)
        self.out += data_of(ttype, dims) if data is None else data


# --- whisper.cpp ---------------------------------------------------------------------------

def whisper(ftype=1, ttype_2d=F16, tokens=(b"!", b"\"", b"hello", b"", b" world", b"<|endoftext|>")):
    # The tensor set whisper.cpp's loader expects (src/whisper-arch.h): 11 + 15 an encoder block
    # + 24 a decoder block.
    n_vocab, n_ctx, n_state, n_head, n_layer, n_mels = 40, 4, 32, 2, 1, 4
    w = Writer()
    w.out += i32(GGML, n_vocab, n_ctx, n_state, n_head, n_layer, n_ctx, n_state, n_head, n_layer, n_mels, ftype)
    w.out += i32(n_mels, 5) + floats(n_mels * 5, 0.01)
    w.out += i32(len(tokens))
    for t in tokens:
        w.out += i32(len(t)) + t
    s, m = n_state, 4 * n_state

    def attention(prefix):
        w.tensor(prefix + "_ln.weight", F32, [s])
        w.tensor(prefix + "_ln.bias", F32, [s])
        for part in ("query", "key", "value", "out"):
            w.tensor("%s.%s.weight" % (prefix, part), ttype_2d, [s, s])
            if part != "key":
                w.tensor("%s.%s.bias" % (prefix, part), F32, [s])

    def mlp(prefix):
        w.tensor(prefix + ".mlp_ln.weight", F32, [s])
        w.tensor(prefix + ".mlp_ln.bias", F32, [s])
        w.tensor(prefix + ".mlp.0.weight", ttype_2d, [s, m])
        w.tensor(prefix + ".mlp.0.bias", F32, [m])
        w.tensor(prefix + ".mlp.2.weight", ttype_2d, [m, s])
        w.tensor(prefix + ".mlp.2.bias", F32, [s])

    # The converter reverses numpy's shape: conv1's (n_state, n_mels, 3) is ne = [3, n_mels, n_state].
    w.tensor("encoder.positional_embedding", F32, [s, n_ctx])
    w.tensor("encoder.conv1.weight", F16, [3, n_mels, s])
    w.tensor("encoder.conv1.bias", F32, [1, s])
    w.tensor("encoder.conv2.weight", F16, [3, s, s])
    w.tensor("encoder.conv2.bias", F32, [1, s])
    for i in range(n_layer):
        attention("encoder.blocks.%d.attn" % i)
        mlp("encoder.blocks.%d" % i)
    w.tensor("encoder.ln_post.weight", F32, [s])
    w.tensor("encoder.ln_post.bias", F32, [s])
    w.tensor("decoder.positional_embedding", F32, [s, n_ctx])
    w.tensor("decoder.token_embedding.weight", ttype_2d, [s, n_vocab])
    for i in range(n_layer):
        attention("decoder.blocks.%d.attn" % i)
        attention("decoder.blocks.%d.cross_attn" % i)
        mlp("decoder.blocks.%d" % i)
    w.tensor("decoder.ln.weight", F32, [s])
    w.tensor("decoder.ln.bias", F32, [s])
    return bytes(w.out)


# --- llama.cpp before GGUF -----------------------------------------------------------------

def llama(magic=GGJT, version=3, ftype=2, q=Q4_0, aligned=None, extra=None):
    # The tensor set llama.cpp's loader expects: 3 + 9 a layer.
    n_vocab, n_embd, n_mult, n_head, n_layer, n_rot = 5, 32, 32, 2, 1, 16
    n_ff = ((2 * (4 * n_embd) // 3 + n_mult - 1) // n_mult) * n_mult
    aligned = magic == GGJT if aligned is None else aligned
    w = Writer()
    w.out += i32(magic) + (i32(version) if magic != GGML else b"")
    w.out += i32(n_vocab, n_embd, n_mult, n_head, n_layer, n_rot, ftype)
    for i, t in enumerate([b"<unk>", b"<s>", b"</s>", b"\xe2\x96\x81the", b"a"]):
        w.out += i32(len(t)) + t
        if magic != GGML:
            w.out += struct.pack("<f", -float(i))
    w.tensor("tok_embeddings.weight", F16, [n_embd, n_vocab], aligned)
    w.tensor("norm.weight", F32, [n_embd], aligned)
    w.tensor("output.weight", q, [n_embd, n_vocab], aligned)
    for i in range(n_layer):
        p = "layers.%d." % i
        for part in ("wq", "wk", "wv", "wo"):
            w.tensor(p + "attention.%s.weight" % part, q, [n_embd, n_embd], aligned)
        w.tensor(p + "attention_norm.weight", F32, [n_embd], aligned)
        w.tensor(p + "feed_forward.w1.weight", q, [n_embd, n_ff], aligned)
        w.tensor(p + "feed_forward.w2.weight", q, [n_ff, n_embd], aligned)
        w.tensor(p + "feed_forward.w3.weight", q, [n_embd, n_ff], aligned)
        w.tensor(p + "ffn_norm.weight", F32, [n_embd], aligned)
    if extra:
        extra(w, aligned)
    return bytes(w.out)


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


write("whisper_tiny.bin", whisper())
write("whisper_q5_0.bin", whisper(ftype=2008, ttype_2d=Q5_0))  # ggml_ftype Q5_0, quantization version 2
write("llama_ggjt_v3.bin", llama())
write("llama_ggjt_v3_q8_0.bin", llama(ftype=7, q=Q8_0))
write("llama_ggjt_v2_f16.bin", llama(version=2, ftype=1, q=F16))
write("llama_ggjt_v1_f16.bin", llama(version=1, ftype=1, q=F16))
write("llama_ggmf_v1.bin", llama(GGMF, 1, ftype=1, q=F16))
write("llama_ggml.bin", llama(GGML, ftype=0, q=F32))

# --- hostile files -------------------------------------------------------------------------
good = llama()
write("bad_version_ggjt4.bin", i32(GGJT, 4) + good[8:])                     # GL.version
write("bad_version_ggmf2.bin", i32(GGMF, 2) + good[8:])                     # GL.version
# GL.header: an unversioned file of another ggml example (gpt-2's header: n_vocab, n_ctx, n_embd,
# n_head, n_layer, ftype, then its vocabulary count), neither whisper's nor llama's.
write("unplaceable_gpt2.bin", i32(GGML, 50257, 1024, 768, 12, 12, 1, 50257) + bytes(64))
write("header_negative.bin", i32(GGJT, 3, 5, -32, 32, 2, 1, 16, 2) + good[36:])   # GL.header
write("vocab_past_end.bin", i32(GGJT, 3, 5, 32, 32, 2, 1, 16, 2) + i32(1000) + b"<unk>")  # GL.vocab
write("vocab_token_huge.bin", i32(GGJT, 3, 5, 32, 32, 2, 1, 16, 2) + i32(1 << 30) + bytes(16))  # GL.vocab
write("truncated.bin", good[:len(good) - 100])                              # GL.truncated
write("trailing.bin", good + bytes(5))                                      # GL.trailing
write("misaligned.bin", llama(aligned=False))                               # GL.alignment
write("n_dims_5.bin", llama(extra=lambda w, a: w.tensor("extra.weight", F32, [2, 2, 2, 2, 2], a)))
write("huge_name.bin", llama(extra=lambda w, a: w.tensor("extra.weight", F32, [4], a, name_len=1 << 30)))
write("unknown_type.bin", llama(extra=lambda w, a: w.tensor("extra.weight", 99, [4], a, data=bytes(16))))
write("removed_type.bin", llama(extra=lambda w, a: w.tensor("extra.weight", 4, [32], a, data=bytes(20))))
write("ggjt_v2_q4_0.bin", llama(version=2))                                 # GL.tensor: v2's Q4_0 layout
write("zero_dim.bin", llama(extra=lambda w, a: w.tensor("extra.weight", F32, [4, 0], a, data=b"")))
write("partial_block.bin", llama(extra=lambda w, a: w.tensor("extra.weight", Q4_0, [16, 2], a, data=bytes(36))))
write("whisper_truncated.bin", whisper()[:3000])                             # GL.truncated in the tensors
write("whisper_trailing.bin", whisper() + bytes(11))                        # GL.trailing
write("whisper_cut_between_records.bin", whisper()[:750])                   # GL.truncated: 3 of 50 tensors
