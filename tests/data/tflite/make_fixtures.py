#!/usr/bin/env python3
"""Makes the TFLite fixtures of tests/tflite_test.cpp with flatbuffers' Python Builder.

The layout follows TensorFlow Lite's tensorflow/lite/schema/schema.fbs (tables Model, OperatorCode,
SubGraph, Tensor, Operator, Buffer, Metadata, SignatureDef, TensorMap, QuantizationParameters,
SparsityParameters, DimensionMetadata, Int32Vector: field ids in declaration order, a union
taking two) and the order in which TensorFlow's converter (tensorflow/compiler/mlir/lite/
flatbuffer_export.cc) builds a model: buffers first, then tensors, operators, subgraphs,
operator codes, metadata and signature defs, the Model last, so that the buffers' data lies
at the end of the file, 16-aligned (Buffer.data's force_align). A model over 2 GB keeps its
buffers after the flatbuffer at Buffer.offset/size (schema.fbs's comment on Buffer; the
converter's large-model path): `external.tflite` is laid out that way at a small size.

Run with /usr/bin/python3 (python3-flatbuffers, numpy); writes the .tflite files beside itself.
"""
import os
import struct

import flatbuffers
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

FLOAT32, INT32, INT8 = 0, 2, 9
ADD, FULLY_CONNECTED, CUSTOM = 0, 9, 32


def vec_i32(b, values):
    b.StartVector(4, len(values), 4)
    for v in reversed(values):
        b.PrependInt32(v)
    return b.EndVector()


def vec_f32(b, values):
    b.StartVector(4, len(values), 4)
    for v in reversed(values):
        b.PrependFloat32(v)
    return b.EndVector()


def vec_i64(b, values):
    b.StartVector(8, len(values), 8)
    for v in reversed(values):
        b.PrependInt64(v)
    return b.EndVector()


def vec_offsets(b, offsets):
    b.StartVector(4, len(offsets), 4)
    for o in reversed(offsets):
        b.PrependUOffsetTRelative(o)
    return b.EndVector()


def vec_bytes(b, data):
    b.StartVector(1, len(data), 16)
    b.head = b.head - len(data)
    b.Bytes[b.head:b.head + len(data)] = data
    return b.EndVector()


def table(b, fields):
    """fields: [(slot, kind, value)], kind 'u8'/'i8'/'i32'/'u32'/'u64'/'off'."""
    b.StartObject(max(slot for slot, _, _ in fields) + 1 if fields else 0)
    for slot, kind, value in fields:
        if kind == "off":
            b.PrependUOffsetTRelativeSlot(slot, value, 0)
        elif kind == "u8":
            b.PrependUint8Slot(slot, value, 0)
        elif kind == "i8":
            b.PrependInt8Slot(slot, value, 0)
        elif kind == "i32":
            b.PrependInt32Slot(slot, value, 0)
        elif kind == "u32":
            b.PrependUint32Slot(slot, value, 0)
        elif kind == "u64":
            b.PrependUint64Slot(slot, value, 0)
    return b.EndObject()


def model(
    weights_bytes=12,
    weights_buffer=1,
    fc_opcode_index=0,
    add_input=2,
    version=3,
    custom_code=None,
    external=False,
    external_offset_shift=0,
    sparse=False,
    weight_type=INT8,
):
    """The converter's shape of a small model: FULLY_CONNECTED (float32 input, int8 weights with
    a scale, float32 bias) then ADD of a float32 constant; one signature, metadata
    min_runtime_version. With `custom_code`, a third operator of that custom code."""
    b = flatbuffers.Builder(1024)
    b.ForceDefaults(external)
    weights = (np.arange(weights_bytes, dtype=np.int8) - 6).tobytes()
    bias = np.array([0.5, -0.5, 0.25], dtype=np.float32).tobytes()
    addend = np.array([[1.0, 2.0, 3.0]], dtype=np.float32).tobytes()
    runtime = b"1.14.0".ljust(16, b"\0")
    datas = [b"", weights, bias, addend, b"", b"", b"", runtime, b""]
    # Buffers: data vectors first (they end up last in the file).
    data_offsets = [vec_bytes(b, d) if d and not external else None for d in datas]
    buffers = []
    for i, d in enumerate(datas):
        if external and d:
            # Placeholders: the real offsets are patched in once the flatbuffer's size is known.
            buffers.append(table(b, [(1, "u64", 2), (2, "u64", len(d))]))
        elif data_offsets[i] is not None:
            buffers.append(table(b, [(0, "off", data_offsets[i])]))
        else:
            buffers.append(table(b, []))
    # Tensors: 0 input, 1 weights, 2 bias, 3 fc_out, 4 addend, 5 output, 6 custom_out.
    names = ["serving_default_x:0", "sequential/dense/MatMul", "sequential/dense/BiasAdd/ReadVariableOp",
             "sequential/dense/BiasAdd", "sequential/add/y", "StatefulPartitionedCall:0", "custom_out"]
    shapes = [[1, 4], [3, 4], [3], [1, 3], [1, 3], [1, 3], [1, 3]]
    types = [FLOAT32, weight_type, FLOAT32, FLOAT32, FLOAT32, FLOAT32, FLOAT32]
    tensor_buffers = [0, weights_buffer, 2, 4, 3, 5, 6]
    tensors = []
    for i in range(len(names)):
        name = b.CreateString(names[i])
        shape = vec_i32(b, shapes[i])
        quant = None
        sparsity = None
        if i == 1:
            scale = vec_f32(b, [0.02])
            zero = vec_i64(b, [0])
            quant = table(b, [(2, "off", scale), (3, "off", zero)])
            if sparse:
                values = vec_i32(b, [0, 1, 2])
                idx = table(b, [(0, "off", values)])
                dim = table(b, [(0, "u8", 1), (2, "u8", 1), (3, "off", idx), (4, "u8", 1), (5, "off", idx)])
                dims = vec_offsets(b, [dim])
                order = vec_i32(b, [0, 1])
                sparsity = table(b, [(0, "off", order), (2, "off", dims)])
        fields = [(0, "off", shape), (1, "i8", types[i]), (2, "u32", tensor_buffers[i]), (3, "off", name)]
        if quant is not None:
            fields.append((4, "off", quant))
        if sparsity is not None:
            fields.append((6, "off", sparsity))
        tensors.append(table(b, fields))
    # Operators: FULLY_CONNECTED(0, 1, 2) -> 3; ADD(3, add_input... ) -> 5; custom(5) -> 6.
    fc_options = table(b, [(0, "u8", 0)])  # FullyConnectedOptions: activation NONE
    ops = [table(b, [(0, "u32", fc_opcode_index), (1, "off", vec_i32(b, [0, 1, 2])), (2, "off", vec_i32(b, [3])),
                     (3, "u8", 8), (4, "off", fc_options)])]
    ops.append(table(b, [(0, "u32", 1), (1, "off", vec_i32(b, [3, add_input])), (2, "off", vec_i32(b, [5]))]))
    outputs = [5]
    if custom_code is not None:
        ops.append(table(b, [(0, "u32", 2), (1, "off", vec_i32(b, [5])), (2, "off", vec_i32(b, [6]))]))
        outputs = [6]
    sg_name = b.CreateString("main")
    subgraph = table(b, [(0, "off", vec_offsets(b, tensors)), (1, "off", vec_i32(b, [0])),
                         (2, "off", vec_i32(b, outputs)), (3, "off", vec_offsets(b, ops)), (4, "off", sg_name)])
    codes = [table(b, [(0, "i8", FULLY_CONNECTED), (2, "i32", 1), (3, "i32", FULLY_CONNECTED)]),
             table(b, [(0, "i8", ADD), (2, "i32", 1), (3, "i32", ADD)])]
    if custom_code is not None:
        code = b.CreateString(custom_code)
        codes.append(table(b, [(0, "i8", CUSTOM), (1, "off", code), (2, "i32", 1), (3, "i32", CUSTOM)]))
    meta_name = b.CreateString("min_runtime_version")
    metadata = table(b, [(0, "off", meta_name), (1, "u32", 7)])
    in_name, out_name = b.CreateString("x"), b.CreateString("output_0")
    sig_in = table(b, [(0, "off", in_name), (1, "u32", 0)])
    sig_out = table(b, [(0, "off", out_name), (1, "u32", outputs[0])])
    key = b.CreateString("serving_default")
    signature = table(b, [(0, "off", vec_offsets(b, [sig_in])), (1, "off", vec_offsets(b, [sig_out])), (2, "off", key),
                          (4, "u32", 0)])
    description = b.CreateString("MLIR Converted.")
    root = table(b, [(0, "u32", version), (1, "off", vec_offsets(b, codes)), (2, "off", vec_offsets(b, [subgraph])),
                     (3, "off", description), (4, "off", vec_offsets(b, buffers)),
                     (6, "off", vec_offsets(b, [metadata])), (7, "off", vec_offsets(b, [signature]))])
    b.Finish(root, file_identifier=b"TFL3")
    out = bytearray(b.Output())
    if external:
        out = lay_out_external(out, [d for d in datas if d], external_offset_shift)
    return bytes(out)


def shared_vectors(n=3000):
    """One Tensor table, its shape of n dimensions, listed n times by its subgraph: verified once
    per offset as flatbuffers does, each time with the same shape."""
    b = flatbuffers.Builder(1024)
    shape = vec_i32(b, [1] * n)
    tensor = table(b, [(0, "off", shape), (1, "i8", FLOAT32)])
    subgraph = table(b, [(0, "off", vec_offsets(b, [tensor] * n))])
    empty = table(b, [])
    root = table(b, [(0, "u32", 3), (2, "off", vec_offsets(b, [subgraph])), (4, "off", vec_offsets(b, [empty]))])
    b.Finish(root, file_identifier=b"TFL3")
    return bytes(b.Output())


def tables_of(buf, vector_field_owner, field_id):
    """Offsets of the tables of a vector-of-tables field of the table at `vector_field_owner`."""
    at = field_pos(buf, vector_field_owner, field_id)
    vec = at + struct.unpack_from("<I", buf, at)[0]
    n = struct.unpack_from("<I", buf, vec)[0]
    return [vec + 4 + 4 * i + struct.unpack_from("<I", buf, vec + 4 + 4 * i)[0] for i in range(n)]


def field_pos(buf, tbl, field_id):
    vt = tbl - struct.unpack_from("<i", buf, tbl)[0]
    vsize = struct.unpack_from("<H", buf, vt)[0]
    entry = 4 + 2 * field_id
    voff = struct.unpack_from("<H", buf, vt + entry)[0] if entry < vsize else 0
    assert voff, (tbl, field_id)
    return tbl + voff


def root_of(buf):
    return struct.unpack_from("<I", buf, 0)[0]


def lay_out_external(fb, datas, shift):
    """The buffers' bytes after the flatbuffer, each 16-aligned, their offsets patched in."""
    out = bytearray(fb)
    while len(out) % 16:
        out.append(0)
    buffers = tables_of(out, root_of(out), 4)
    k = 0
    for tbl in buffers:
        vt = tbl - struct.unpack_from("<i", out, tbl)[0]
        vsize = struct.unpack_from("<H", out, vt)[0]
        if vsize <= 6 or struct.unpack_from("<H", out, vt + 6)[0] == 0:
            continue  # an empty buffer: no offset field
        off_at = field_pos(out, tbl, 1)
        if struct.unpack_from("<Q", out, off_at)[0] == 0:
            continue
        while len(out) % 16:
            out.append(0)
        struct.pack_into("<Q", out, off_at, len(out) + shift)
        out += datas[k]
        k += 1
    return out


def patched(buf, at, fmt, value):
    out = bytearray(buf)
    struct.pack_into(fmt, out, at, value)
    return bytes(out)


def main():
    files = {}
    good = model()
    files["model.tflite"] = good
    files["external.tflite"] = model(external=True)
    files["sparse.tflite"] = model(sparse=True)
    files["custom_op.tflite"] = model(custom_code="MyCustomOp")
    files["flex_add.tflite"] = model(custom_code="FlexAddV2")
    files["flex_read_file.tflite"] = model(custom_code="FlexReadFile")
    files["flex_write_file.tflite"] = model(custom_code="FlexWriteFile")
    files["buffer_size_mismatch.tflite"] = model(weights_bytes=11)
    files["buffer_index_past.tflite"] = model(weights_buffer=99)
    files["opcode_past.tflite"] = model(fc_opcode_index=7)
    files["tensor_index_past.tflite"] = model(add_input=50)
    files["version_2.tflite"] = model(version=2)
    files["bad_type.tflite"] = model(weight_type=42)
    files["external_past_end.tflite"] = model(external=True, external_offset_shift=4096)
    files["shared_vectors.tflite"] = shared_vectors()
    root = root_of(good)
    # The Model's subgraphs offset pointing past the file's end.
    files["offset_out_of_range.tflite"] = patched(good, field_pos(good, root, 2), "<I", len(good) * 2)
    # The Model's soffset putting its vtable before the file's start.
    files["vtable_out_of_range.tflite"] = patched(good, root, "<i", root + 64)
    # The first tensor's name: a string whose length passes the file's end.
    sg = tables_of(good, root, 2)[0]
    tensor0 = tables_of(good, sg, 0)[0]
    name_at = field_pos(good, tensor0, 3)
    name = name_at + struct.unpack_from("<I", good, name_at)[0]
    files["vector_length_past_end.tflite"] = patched(good, name, "<I", 0x10000000)
    # The string's terminator overwritten.
    n = struct.unpack_from("<I", good, name)[0]
    files["string_no_nul.tflite"] = patched(good, name + 4 + n, "<B", ord("x"))
    # Truncated: the file cut in its tables.
    files["truncated.tflite"] = good[: len(good) // 3]
    for name, data in files.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
