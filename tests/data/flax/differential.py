#!/usr/bin/python3
"""tensorgate's Flax verdicts beside a reference reader's, over seeded mutations of the fixtures.

The reference loads a file as flax.serialization.msgpack_restore does (flax/serialization.py,
google/flax): msgpack.unpackb with raw=False and strict_map_key=False, extensions 1 and 3
unpacked with raw=True as (shape, dtype name, buffer) and given to np.frombuffer and reshape,
extension 2 as (real, imag), any other extension kept as msgpack.ExtType; then every map with
the key __msgpack_chunked_array__ concatenated and reshaped. flax loads a leaf of another
extension type as that ExtType; tensorgate refuses it (FX.array: flax never writes one), so the
reference does too, and keeps such a key as flax would (FX.key is a warning). jax's dtypes NumPy lacks without
ml_dtypes (bfloat16, the float8s, int4, ...) stand in as unsigned ints of their size. Beyond
loading, tensorgate refuses a top level that is not a map and nesting past 64 levels, so the
reference does too. A check tensorgate stopped at a capacity limit is not compared.

usage: /usr/bin/python3 tests/data/flax/differential.py [BUILD_DIR] [--mutations=3000] [--seed=1]
Prints each disagreement and their count; exit status 1 when there is one. Not run by CTest.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import msgpack
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STAND_IN = {'bfloat16': 'u2', 'int4': 'u1', 'uint4': 'u1', 'int2': 'u1', 'uint2': 'u1', 'float4_e2m1fn': 'u1',
            'float6_e2m3fn': 'u1', 'float6_e3m2fn': 'u1', 'float8_e4m3fn': 'u1', 'float8_e5m2': 'u1',
            'float8_e4m3b11fnuz': 'u1', 'float8_e4m3fnuz': 'u1', 'float8_e5m2fnuz': 'u1', 'float8_e4m3': 'u1',
            'float8_e3m4': 'u1', 'float8_e8m0fnu': 'u1'}
NUMPY = {'bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float16', 'float32',
         'float64', 'float128', 'complex64', 'complex128', 'complex256'}
TOKENS = [b'\xc1', b'\xc7', b'\xc8\x00', b'\xd8\x01', b'\xdc\x00\x02', b'\xde\x00\x01', b'\x93', b'\x80', b'\x90',
          b'\xa5shape', b'\xa6chunks', b'\xb9__msgpack_chunked_array__', b'\xa6object', b'\xa8bfloat16', b'\xff',
          b'\xd3', b'\xcb', b'\xc4\x01', b'\xa10', b'\xa11']


def array_of(data):
    shape, name, buffer = msgpack.unpackb(data, raw=True)
    name = name.decode() if isinstance(name, bytes) else name
    if name not in NUMPY and name not in STAND_IN:
        raise ValueError('dtype')
    # reshape infers a -1; flax never writes one, and tensorgate refuses any negative dimension.
    if not isinstance(shape, list) or any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in shape):
        raise ValueError('shape')
    return np.frombuffer(buffer, dtype=np.dtype(STAND_IN.get(name, name))).reshape(shape)


def ext_hook(code, data):
    if code == 1:
        return array_of(data)
    if code == 3:
        return array_of(data)[()]
    if code == 2:
        pair = msgpack.unpackb(data)
        return complex(pair[0], pair[1])
    return msgpack.ExtType(code, data)


def foreign_leaf(x):
    if isinstance(x, dict):
        return any(foreign_leaf(v) for v in x.values())
    if isinstance(x, list):
        return any(foreign_leaf(v) for v in x)
    return isinstance(x, msgpack.ExtType)


def depth(x, d=1):
    if isinstance(x, dict):
        return max([d] + [depth(v, d + 1) for v in x.values()])
    if isinstance(x, list):
        return max([d] + [depth(v, d + 1) for v in x])
    return d


def unchunk(d):
    if isinstance(d, dict):
        if '__msgpack_chunked_array__' in d:
            shape = tuple(d['shape'][str(i)] for i in range(len(d['shape'])))
            return np.concatenate(tuple(d['chunks'][str(i)] for i in range(len(d['chunks'])))).reshape(shape)
        for k, v in list(d.items()):
            d[k] = unchunk(v)
    return d


def reference(data):
    try:
        state = msgpack.unpackb(data, ext_hook=ext_hook, raw=False, strict_map_key=False)
        if not isinstance(state, dict) or depth(state) > 64 or foreign_leaf(state):
            return False
        unchunk(state)
        return True
    except Exception:
        return False


def mutate(rng, b):
    b = bytearray(b)
    for _ in range(rng.randrange(1, 4)):
        if not b:
            break
        op, i = rng.randrange(5), rng.randrange(len(b))
        if op == 0:
            b[i] = rng.randrange(256)
        elif op == 1:
            del b[i:i + rng.randrange(1, 8)]
        elif op == 2:
            b[i:i] = rng.choice(TOKENS)
        elif op == 3:
            b[i] ^= 1 << rng.randrange(8)
        else:
            del b[i:]
    return bytes(b)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    opts = dict((a[2:].split('=', 1) + [''])[:2] for a in sys.argv[1:] if a.startswith('--'))
    tensorgate = os.path.join(args[0] if args else 'build/release', 'cli', 'tensorgate')
    rng = random.Random(int(opts.get('seed', '1')))
    seeds = [open(os.path.join(HERE, n), 'rb').read() for n in sorted(os.listdir(HERE)) if n.endswith('.msgpack')]
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for k in range(int(opts.get('mutations', '3000'))):
            names.append(os.path.join(tmp, 'm%05d.msgpack' % k))
            with open(names[-1], 'wb') as f:
                f.write(mutate(rng, rng.choice(seeds)))
        out = subprocess.run([tensorgate, 'check', '--input-format', 'flax', '--format', 'json'] + names,
                             capture_output=True, text=True).stdout
        files = {f['path']: f for f in json.loads(out)['files']}
        bad = aborted = 0
        for n in names:
            report = files[n]
            if report.get('aborted'):
                aborted += 1
                continue
            want = reference(open(n, 'rb').read())
            if report['valid'] != want:
                bad += 1
                print(os.path.basename(n), 'reference', want, 'tensorgate', report['valid'],
                      [f['rule'] for f in report['findings']])
        print(f'{len(names)} files, {aborted} aborted, {bad} disagreements')
        sys.exit(1 if bad else 0)


main()
