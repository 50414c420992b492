#!/usr/bin/python3
"""Makes the Flax fixtures of tests/flax_test.cpp: run with /usr/bin/python3 (numpy, msgpack).

flax is not installed here; the files are built from its published layout:
- flax/flax/serialization.py (google/flax), msgpack_serialize and _msgpack_ext_pack: the state
  dict packed by msgpack.packb(state, default=..., strict_types=True); an np.ndarray becomes
  ExtType(1, packb((shape, dtype.name, arr.tobytes('C')), use_bin_type=True)), an np.generic
  ExtType(3, the same of np.asarray(x)), a Python complex ExtType(2, packb((real, imag))).
- the same file's _chunk / _chunk_array_leaves_in_place: an array above MAX_CHUNK_SIZE (2**30
  bytes) becomes {'__msgpack_chunked_array__': True, 'shape': {'0': d0, ...}, 'chunks': {'0':
  flat piece, ...}}; here a small array is chunked the same way with a small chunk size, so the
  fixture stays small.
- jax's bfloat16 has no NumPy type without ml_dtypes: its arrays are written as flax writes them,
  the name "bfloat16" and two bytes an element (here the top halves of float32s).
- msgpack/msgpack spec.md for the hand-made hostile items (0xc1, lengths, nesting).
"""
import os

import msgpack
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


class Named:
    """An array written under a dtype name NumPy lacks (bfloat16), or any name (hostile files)."""

    def __init__(self, shape, name, buffer):
        self.shape, self.name, self.buffer = tuple(shape), name, buffer


def nd_bytes(shape, name, buffer):
    return msgpack.packb((tuple(shape), name, buffer), use_bin_type=True)


def ext_pack(x):
    if isinstance(x, Named):
        return msgpack.ExtType(1, nd_bytes(x.shape, x.name, x.buffer))
    if isinstance(x, np.ndarray):
        return msgpack.ExtType(1, nd_bytes(x.shape, x.dtype.name, x.tobytes('C')))
    if isinstance(x, np.generic):
        a = np.asarray(x)
        return msgpack.ExtType(3, nd_bytes(a.shape, a.dtype.name, a.tobytes('C')))
    if isinstance(x, complex):
        return msgpack.ExtType(2, msgpack.packb((x.real, x.imag)))
    return x


def to_bytes(state):
    return msgpack.packb(state, default=ext_pack, strict_types=True)


def chunk(arr, chunksize):
    flat = arr.reshape(-1)
    pieces = [flat[i:i + chunksize] for i in range(0, flat.size, chunksize)]
    return {'__msgpack_chunked_array__': True,
            'shape': {str(i): d for i, d in enumerate(arr.shape)},
            'chunks': {str(i): p for i, p in enumerate(pieces)}}


def bf16(shape, rng):
    f = rng.standard_normal(shape).astype(np.float32)
    return Named(shape, 'bfloat16', (f.view(np.uint32) >> 16).astype(np.uint16).tobytes())


def dense(rng, n_in, n_out, dtype=np.float32):
    return {'kernel': rng.standard_normal((n_in, n_out)).astype(dtype), 'bias': np.zeros((n_out,), dtype)}


def layer_norm(h):
    return {'scale': np.ones((h,), np.float32), 'bias': np.zeros((h,), np.float32)}


def bert(rng, vocab=64, hidden=16, inter=32, layers=2):
    layer = {}
    for i in range(layers):
        layer[str(i)] = {
            'attention': {'self': {'query': dense(rng, hidden, hidden), 'key': dense(rng, hidden, hidden),
                                   'value': dense(rng, hidden, hidden)},
                          'output': {'dense': dense(rng, hidden, hidden), 'LayerNorm': layer_norm(hidden)}},
            'intermediate': {'dense': {'kernel': bf16((hidden, inter), rng), 'bias': bf16((inter,), rng)}},
            'output': {'dense': dense(rng, inter, hidden), 'LayerNorm': layer_norm(hidden)},
        }
    word = rng.standard_normal((vocab, hidden)).astype(np.float32)
    return {
        'params': {'bert': {
            'embeddings': {'word_embeddings': {'embedding': chunk(word, 300)},
                           'position_embeddings': {'embedding': rng.standard_normal((32, hidden)).astype(np.float32)},
                           'token_type_embeddings': {'embedding': rng.standard_normal((2, hidden)).astype(np.float32)},
                           'LayerNorm': layer_norm(hidden)},
            'encoder': {'layer': layer},
            'pooler': {'dense': dense(rng, hidden, hidden)},
        }},
        'step': np.int32(1000),
        'lr_scale': complex(1.0, 0.0),
    }


def write(name, data):
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(data)


def main():
    rng = np.random.default_rng(7)
    good = to_bytes(bert(rng))
    write('flax_model.msgpack', good)
    small = {'params': {'Dense_0': {'kernel': np.arange(6, dtype=np.float32).reshape(2, 3),
                                    'bias': np.zeros((3,), np.float32)}}}
    write('dense.msgpack', to_bytes(small))
    # Every dtype flax's writers use, each a 2x2 array.
    dtypes = {}
    for name in ['float32', 'float16', 'float64', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32',
                 'uint64', 'bool', 'complex64', 'complex128']:
        dtypes[name] = np.zeros((2, 2), np.dtype(name))
    for name in ['bfloat16', 'float8_e4m3fn', 'float8_e5m2', 'int4']:
        size = 2 if name == 'bfloat16' else 1
        dtypes[name] = Named((2, 2), name, bytes(4 * size))
    write('dtypes.msgpack', to_bytes({'params': dtypes}))
    # A state nested 60 deep: within Limits::flax.max_depth (64).
    state = {'kernel': np.zeros((1,), np.float32)}
    for i in range(59):
        state = {'l%d' % i: state}
    write('nested_60.msgpack', to_bytes(state))

    # Every msgpack type a state may hold besides arrays, each width of each.
    meta = {'nil': None, 'yes': True, 'no': False, 'i8': -100, 'i16': -3000, 'i32': -70000, 'i64': -2 ** 40,
            'neg': -5, 'u8': 200, 'u16': 60000, 'u32': 2 ** 31, 'u64': 2 ** 63, 'f64': 1.5,
            's8': 'x' * 40, 's16': 'y' * 300, 'b8': b'x' * 5, 'b16': b'z' * 300, 'list': [1, [2, [3]], {}],
            'empty': {}, 'empty_list': [], 'scalar': np.float64(2.5), 'c': complex(1.0, -2.0)}
    typed = msgpack.packb({'meta': meta}, default=ext_pack, strict_types=True)
    # A float32 and a fixext16 (an int8 array whose msgpack is 16 bytes), by hand.
    inner = nd_bytes((6,), 'int8', bytes(range(6)))
    assert len(inner) == 16
    write('all_types.msgpack', typed)
    write('fixext.msgpack', b'\x82\xa3f32\xca\x3f\xc0\x00\x00\xa1a\xd8\x01' + inner)
    # Bytes inside an extension after its (shape, dtype, buffer).
    write('ext_extra.msgpack', b'\x81\xa1a\xd8\x01' + nd_bytes((2,), 'int8', b'\x01\x02').ljust(16, b'\x00'))
    # msgpack of a map16 and map32 header, str8/str16/str32 keys, array16/array32, ext16/ext32.
    wide = (b'\xde\x00\x03' + b'\xd9\x01a' + b'\xdc\x00\x01\x01' + b'\xda\x00\x01b' + b'\xdd\x00\x00\x00\x01\x02' +
            b'\xdb\x00\x00\x00\x01c' + b'\xdf\x00\x00\x00\x01\xa1w')
    body = nd_bytes((3,), 'float32', bytes(12))
    wide += b'\xc9' + len(body).to_bytes(4, 'big') + b'\x01' + body
    write('wide_headers.msgpack', wide)

    # A small chunked array (three int8 chunks of a 2x5 array), and three small arrays.
    write('chunked_small.msgpack', to_bytes({'params': {'emb': chunk(np.arange(10, dtype=np.int8).reshape(2, 5), 4)}}))
    write('three_int8.msgpack', to_bytes({k: np.array([i], np.int8) for i, k in enumerate('abc')}))

    # Hostile files, one per rule.
    write('object_dtype.msgpack', to_bytes({'params': {'w': Named((2,), 'object', bytes(16))}}))
    write('structured_dtype.msgpack', to_bytes({'params': {'w': Named((2,), "[('a', '<f4')]", bytes(8))}}))
    write('buffer_mismatch.msgpack', to_bytes({'params': {'w': Named((4, 4), 'float32', bytes(60))}}))
    write('negative_dim.msgpack', to_bytes({'params': {'w': Named((-1, 4), 'float32', bytes(16))}}))
    write('foreign_ext.msgpack', to_bytes({'params': {'w': msgpack.ExtType(7, b'\x00' * 5)}}))
    bad_chunks = chunk(np.zeros((4, 5), np.float32), 8)
    bad_chunks['shape'] = {'0': 4, '1': 6}
    write('chunked_mismatch.msgpack', to_bytes({'params': {'emb': bad_chunks}}))
    deep = b''
    for _ in range(1000):
        deep += b'\x81\xa1a'
    write('deep_1000.msgpack', deep + b'\xc0')
    past = to_bytes({'params': {'w': np.zeros((64,), np.float32)}})
    write('past_end.msgpack', past[:len(past) - 100])
    # A bin32 whose length claims 4 GiB in a file of a few bytes.
    write('huge_length.msgpack', b'\x81\xa1w\xc6\xff\xff\xff\xf0' + bytes(8))
    write('c1.msgpack', b'\x81\xa6params\xc1')
    write('non_string_key.msgpack', to_bytes({'params': {1: np.zeros((2,), np.float32)}}))
    write('trailing.msgpack', to_bytes(small) + b'\x00\x00')
    write('top_array.msgpack', msgpack.packb([1, 2, 3]))


if __name__ == '__main__':
    main()
