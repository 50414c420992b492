#!/usr/bin/python3
"""The HDF5 fixtures: legacy Keras .h5 models and other HDF5 files as h5py (python3-h5py, HDF5
1.10) writes them. Keras is not a Debian 12 package, so the root attributes are written here the
way Keras writes them: Keras 2 (tf.keras's hdf5_format) stores model_config, training_config,
keras_version and backend as Python bytes, which h5py writes as fixed-length strings; Keras 3's
legacy_h5_format stores model_config and training_config as JSON bytes and keras_version and
backend as str, which h5py writes as variable-length UTF-8 strings whose bytes live in a global
heap collection. The weights follow Keras's model_weights/<layer>/<layer>/kernel:0 layout.
Then hand-made corruptions of the benign file (see the end of this script).

Run from this folder with Debian's python3: /usr/bin/python3 make_fixtures.py
"""
import base64
import json
import os
import struct

import h5py
import numpy as np


def dense(name, units, activation="relu", **extra):
    cfg = {"name": name, "trainable": True, "dtype": "float32", "units": units, "activation": activation,
           "use_bias": True,
           "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
           "bias_initializer": {"class_name": "Zeros", "config": {}},
           "kernel_regularizer": None, "bias_regularizer": None, "activity_regularizer": None,
           "kernel_constraint": None, "bias_constraint": None}
    cfg.update(extra)
    return {"class_name": "Dense", "config": cfg}


def sequential(layers, name="sequential"):
    inp = {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 4], "dtype": "float32",
                                                   "sparse": False, "ragged": False, "name": "dense_input"}}
    return {"class_name": "Sequential", "config": {"name": name, "layers": [inp] + layers}}


TRAINING = {"loss": "mse", "metrics": None, "weighted_metrics": None, "loss_weights": None,
            "optimizer_config": {"class_name": "Adam", "config": {"name": "Adam", "learning_rate": 0.001,
                                                                   "beta_1": 0.9, "beta_2": 0.999}}}


def weights(f, layers):
    g = f.create_group("model_weights")
    g.attrs["layer_names"] = [name.encode() for name, _ in layers]
    g.attrs["backend"] = b"tensorflow"
    g.attrs["keras_version"] = b"2.11.0"
    for name, shape in layers:
        lg = g.create_group(name)
        lg.attrs["weight_names"] = [f"{name}/kernel:0".encode(), f"{name}/bias:0".encode()]
        inner = lg.create_group(name)
        inner.create_dataset("kernel:0", data=np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
        inner.create_dataset("bias:0", data=np.zeros(shape[1], dtype=np.float32))


def keras2(path, config, training=TRAINING, **kw):
    """Keras 2's legacy .h5: every root attribute is bytes (fixed-length strings)."""
    with h5py.File(path, "w", **kw) as f:
        f.attrs["backend"] = b"tensorflow"
        f.attrs["keras_version"] = b"2.11.0"
        f.attrs["model_config"] = json.dumps(config).encode("utf8")
        if training is not None:
            f.attrs["training_config"] = json.dumps(training).encode("utf8")
        weights(f, [("dense", (4, 8)), ("dense_1", (8, 1))])


def keras3(path, config, training=TRAINING, **kw):
    """Keras 3's legacy_h5_format: JSON as bytes, keras_version and backend as str (global heap)."""
    with h5py.File(path, "w", **kw) as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = "3.3.3"
        f.attrs["model_config"] = json.dumps(config).encode("utf8")
        if training is not None:
            f.attrs["training_config"] = json.dumps(training).encode("utf8")
        weights(f, [("dense", (4, 8)), ("dense_1", (8, 1))])


BENIGN = sequential([dense("dense", 8), dense("dense_1", 1, "linear")])
keras2("keras2_dense.h5", BENIGN)
keras3("keras3_dense.h5", BENIGN)
keras2("keras2_no_training.h5", BENIGN, training=None)
# h5py 2, which Keras 2 used for years, wrote bytes as fixed-length strings: so does numpy's bytes_.
with h5py.File("keras2_fixed.h5", "w") as f:
    f.attrs["backend"] = np.bytes_(b"tensorflow")
    f.attrs["keras_version"] = np.bytes_(b"2.4.0")
    f.attrs["model_config"] = np.bytes_(json.dumps(BENIGN).encode("utf8"))
    f.attrs["training_config"] = np.bytes_(json.dumps(TRAINING).encode("utf8"))
    weights(f, [("dense", (4, 8)), ("dense_1", (8, 1))])

# A Lambda as Keras 2 writes it: function = (base64 of the marshalled code, defaults, closure).
code = base64.b64encode(b"\xe3" + b"\x00" * 40).decode()
lam = {"class_name": "Lambda", "config": {"name": "lambda", "trainable": True, "dtype": "float32",
                                          "function": [code, None, None], "function_type": "lambda",
                                          "module": "__main__", "output_shape": None,
                                          "output_shape_type": "raw", "output_shape_module": None,
                                          "arguments": {}}}
keras2("lambda.h5", sequential([dense("dense", 8), lam]))
# A Keras 3 style serialised function in a layer's config that resolves to os.system.
keras2("os_system.h5", sequential([dense("dense", 8, activation={
    "module": "os", "class_name": "function", "config": "system", "registered_name": "function"})]))
# A custom object: a registered class (package>Name) with no module, as Keras 2 writes one, and
# one of Keras 3's nested objects from a module outside Keras.
keras2("custom_object.h5", sequential([dense("dense", 8), {"class_name": "MyPackage>Scaler",
                                                             "config": {"name": "scaler", "factor": 2.0}}]))
keras3("custom_module.h5", sequential([dense("dense", 8, kernel_initializer={
    "module": "my_initializers", "class_name": "Ones2", "config": {}, "registered_name": "Ones2"})]))
# model_config that is not JSON, and one that is no Keras object.
with h5py.File("config_not_json.h5", "w") as f:
    f.attrs["model_config"] = b"{not json"
with h5py.File("config_no_class.h5", "w") as f:
    f.attrs["model_config"] = b'{"config": {"layers": []}}'

# Not Keras: a few attributes of several types and a dataset.
with h5py.File("plain.h5", "w") as f:
    f.attrs["title"] = "measurements"
    f.attrs["count"] = np.int32(42)
    f.attrs["scale"] = np.float64(0.5)
    f.attrs["ids"] = np.arange(5, dtype=np.int64)
    f.attrs["flag"] = np.uint8(1)
    f.attrs["raw"] = b"fixed"
    f.create_dataset("data", data=np.arange(64, dtype=np.float32))
with h5py.File("empty_root.h5", "w") as f:
    pass
# Keras 2's save_weights (a hub's tf_model.h5): the layers' names and no model_config.
with h5py.File("weights_only.h5", "w") as f:
    f.attrs["layer_names"] = [b"dense", b"dense_1"]
    f.attrs["backend"] = b"tensorflow"
    f.attrs["keras_version"] = b"2.11.0"
    for name, shape in (("dense", (4, 8)), ("dense_1", (8, 1))):
        g = f.create_group(name)
        g.attrs["weight_names"] = [f"{name}/kernel:0".encode(), f"{name}/bias:0".encode()]
        g.create_group(name).create_dataset("kernel:0", data=np.zeros(shape, dtype=np.float32))

keras2("userblock.h5", BENIGN, userblock_size=512)
keras3("userblock_2048.h5", BENIGN, userblock_size=2048)
keras2("latest.h5", BENIGN, libver="latest")
keras3("latest_keras3.h5", sequential([dense("dense", 8), lam]), libver="latest")

# Dense attribute storage: past the compact bound (8 attributes by default with libver latest).
with h5py.File("dense_attrs.h5", "w", libver="latest") as f:
    f.attrs["model_config"] = json.dumps(BENIGN).encode()
    for i in range(20):
        f.attrs[f"attr_{i:02d}"] = np.int32(i)
# A fixed-length string larger than 64 KiB with libver latest goes dense too.
with h5py.File("dense_large_attr.h5", "w", libver="latest") as f:
    f.attrs["model_config"] = np.bytes_(json.dumps(sequential([dense("dense_%d" % i, 8) for i in range(200)])).encode())

# Many attributes in the earliest format: the object header grows by continuation blocks.
with h5py.File("many_attrs.h5", "w") as f:
    f.attrs["model_config"] = json.dumps(BENIGN).encode()
    for i in range(40):
        f.attrs[f"attr_{i:02d}"] = ("value %d " % i) * 20

# --- corruptions of the benign Keras 2 file -------------------------------------------------
benign = open("keras2_dense.h5", "rb").read()


def write(name, data):
    with open(name, "wb") as out:
        out.write(data)


def patched(offset, raw):
    b = bytearray(benign)
    b[offset:offset + len(raw)] = raw
    return bytes(b)


write("truncated_superblock.h5", benign[:40])
write("truncated_header.h5", benign[:200])
write("truncated_half.h5", benign[:len(benign) // 2])
write("bad_superblock_version.h5", patched(8, b"\x07"))
write("bad_offset_size.h5", patched(13, b"\x03"))
# The root symbol table entry's object header address (superblock v0, 8-byte offsets): byte 56+8.
write("root_past_end.h5", patched(64, struct.pack("<Q", len(benign) + 4096)))
write("root_undefined.h5", patched(64, b"\xff" * 8))
# The root object header (v1) at its address: its first message becomes a continuation that
# points back at the header itself (a loop), and one that points past the end.
root = struct.unpack_from("<Q", benign, 64)[0]
write("bad_header_version.h5", patched(root, b"\x05"))
cont_loop = patched(root + 16, struct.pack("<HHB3x", 0x10, 16, 0) + struct.pack("<QQ", root + 16, 64))
write("continuation_loop.h5", cont_loop)
write("continuation_past_end.h5",
      patched(root + 16, struct.pack("<HHB3x", 0x10, 16, 0) + struct.pack("<QQ", len(benign) + 100, 64)))
write("message_past_header.h5", patched(root + 18, struct.pack("<H", 0xfff0)))
