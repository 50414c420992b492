#!/usr/bin/python3
"""The Keras fixtures: .keras archives as Keras 3's saving_lib writes them (metadata.json,
config.json, model.weights.h5 stored in a zip), built here by hand since Keras is not a Debian
12 package: the configs follow Keras 3.x's serialize_keras_object layout ({module, class_name,
config, registered_name}, build_config, compile_config), the weights file is written by h5py
(python3-h5py) with Keras's group layout. One benign model, one with a custom layer, and one
hostile archive per KR check.

Run from this folder with Debian's python3: /usr/bin/python3 make_fixtures.py
"""
import base64
import io
import json
import zipfile

import h5py
import numpy as np


def obj(module, class_name, config, registered_name=None, **extra):
    o = {"module": module, "class_name": class_name, "config": config, "registered_name": registered_name}
    o.update(extra)
    return o


def dense(name, units, activation="relu"):
    return obj("keras.layers", "Dense", {
        "name": name, "trainable": True,
        "dtype": obj("keras", "DTypePolicy", {"name": "float32"}),
        "units": units, "activation": activation, "use_bias": True,
        "kernel_initializer": obj("keras.initializers", "GlorotUniform", {"seed": None}),
        "bias_initializer": obj("keras.initializers", "Zeros", {}),
        "kernel_regularizer": None, "bias_regularizer": None, "kernel_constraint": None, "bias_constraint": None,
    }, build_config={"input_shape": [None, 4]})


def sequential(layers, name="sequential"):
    inp = obj("keras.layers", "InputLayer", {"batch_shape": [None, 4], "dtype": "float32", "sparse": False, "name": "input_layer"})
    return obj("keras", "Sequential", {"name": name, "trainable": True, "dtype": "float32", "layers": [inp] + layers},
               build_config={"input_shape": [None, 4]},
               compile_config={"optimizer": obj("keras.optimizers", "Adam", {"name": "adam", "learning_rate": 0.001}),
                               "loss": "mse", "metrics": None})


def weights_h5():
    b = io.BytesIO()
    with h5py.File(b, "w") as f:
        layers = f.create_group("layers")
        for name, shape in (("dense", (4, 8)), ("dense_1", (8, 1))):
            v = layers.create_group(name).create_group("vars")
            v.create_dataset("0", data=np.zeros(shape, dtype=np.float32))
            v.create_dataset("1", data=np.zeros(shape[1], dtype=np.float32))
        f.create_group("optimizer").create_group("vars")
    return b.getvalue()


WEIGHTS = weights_h5()


def keras_archive(name, config_text):
    with zipfile.ZipFile(name, "w", zipfile.ZIP_STORED) as z:
        for entry, data in (("metadata.json", json.dumps({"keras_version": "3.3.3", "date_saved": "2026-12-07@12:00:00"})),
                            ("config.json", config_text), ("model.weights.h5", WEIGHTS)):
            z.writestr(zipfile.ZipInfo(entry, date_time=(2026, 12, 7, 12, 0, 0)), data)


def model(name, layers):
    keras_archive(name, json.dumps(sequential(layers)))


model("dense.keras", [dense("dense", 8), dense("dense_1", 1, "linear")])
model("custom_layer.keras", [dense("dense", 8), obj("my_layers", "Scaler", {"name": "scaler", "factor": 2.0}, "Custom>Scaler")])

# A Lambda layer: its function is marshalled bytecode (what Keras 3 writes for a lambda).
code = base64.b64encode(b"\xe3" + b"\x00" * 40).decode()
lam = obj("keras.layers", "Lambda", {"name": "lambda", "function": obj("builtins", "function", {"code": code, "defaults": None, "closure": None}, "function")})
model("lambda.keras", [dense("dense", 8), lam])
# The same Lambda nested: a Functional model whose layer is a TimeDistributed wrapper around it.
wrapped = obj("keras.layers", "TimeDistributed", {"name": "td", "layer": lam})
functional = obj("keras", "Functional", {"name": "functional", "layers": [
    obj("keras.layers", "InputLayer", {"batch_shape": [None, 3, 4], "name": "x"}), wrapped],
    "input_layers": [["x", 0, 0]], "output_layers": [["td", 0, 0]]})
keras_archive("nested_lambda.keras", json.dumps(functional))
# A serialised function that Keras resolves to builtins.exec (CVE-2025-1550).
model("builtins_exec.keras", [dense("dense", 8, obj("builtins", "function", "exec", "function"))])
model("os_system_module.keras", [obj("os", "system", {"name": "x"})])
model("tfsm_layer.keras", [obj("keras.layers", "TFSMLayer", {"name": "tfsm", "filepath": "/tmp/savedmodel", "call_endpoint": "serve"})])
model("torch_wrapper.keras", [obj("keras.layers", "TorchModuleWrapper", {"name": "tw", "module": "gASV..."})])
model("lookup_path.keras", [obj("keras.layers", "StringLookup", {"name": "lookup", "vocabulary": "/etc/passwd"})])
model("lookup_inline.keras", [obj("keras.layers", "StringLookup", {"name": "lookup", "vocabulary": ["a", "b"]})])
model("unsafe_flag.keras", [dense("dense", 8, obj("keras.config", "function", "enable_unsafe_deserialization", "function"))])
model("get_file.keras", [dense("dense", 8, obj("keras.utils", "function", "get_file", "function"))])
keras_archive("not_json.keras", '{"module": "keras", "class_name": "Sequential", "config": {')
keras_archive("no_class.keras", json.dumps({"layers": []}))
