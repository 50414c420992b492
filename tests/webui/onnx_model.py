"""A small ONNX model for the browser test, written byte by byte (the standard library only):
a three-layer MLP whose nodes are MatMul x3, Add x3, Relu x2, Reshape and Softmax, so the page's
op-type chart has five bars of three different lengths. The CLI and the service find it valid.
"""
import struct


def varint(v):
    out = bytearray()
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)


def field_varint(field, v):
    return varint(field << 3) + varint(v)


def field_len(field, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(field << 3 | 2) + varint(len(data)) + data


def initializer(name, dims, values=None, dtype=1, raw=None):
    """A graph's initializer (TensorProto: dims 1, data_type 2, name 8, raw_data 9): FLOAT by default."""
    body = b"".join(field_varint(1, d) for d in dims) + field_varint(2, dtype) + field_len(8, name)
    return field_len(5, body + field_len(9, raw if raw is not None else struct.pack("<%df" % len(values), *values)))


def value_info(field, name, dims):
    """A graph input (11) or output (12): a FLOAT tensor of these dims (a str is a symbolic one)."""
    dim = b"".join(field_len(1, field_len(2, d) if isinstance(d, str) else field_varint(1, d)) for d in dims)
    tensor_type = field_varint(1, 1) + field_len(2, dim)
    return field_len(field, field_len(1, name) + field_len(2, field_len(1, tensor_type)))


def node(op_type, inputs, outputs):
    """A NodeProto of the default domain: input 1, output 2, name 3, op_type 4."""
    body = b"".join(field_len(1, i) for i in inputs) + b"".join(field_len(2, o) for o in outputs)
    return field_len(1, body + field_len(3, outputs[0] + "_node") + field_len(4, op_type))


def mlp():
    sizes = [(8, 16), (16, 16), (16, 4)]
    graph, x = b"", "x"
    for i, (n_in, n_out) in enumerate(sizes):
        graph += initializer(f"layer{i}.weight", [n_in, n_out], [0.01 * k for k in range(n_in * n_out)])
        graph += initializer(f"layer{i}.bias", [n_out], [0.0] * n_out)
        graph += node("MatMul", [x, f"layer{i}.weight"], [f"mm{i}"]) + node("Add", [f"mm{i}", f"layer{i}.bias"], [f"h{i}"])
        x = f"h{i}"
        if i < len(sizes) - 1:
            graph += node("Relu", [x], [f"r{i}"])
            x = f"r{i}"
    graph += initializer("flat", [2], dtype=7, raw=struct.pack("<2q", -1, 4))
    graph += node("Reshape", [x, "flat"], ["logits"]) + node("Softmax", ["logits"], ["y"])
    graph += field_len(2, "mlp") + value_info(11, "x", ["batch", 8]) + value_info(12, "y", ["batch", 4])
    opset = field_len(8, field_varint(2, 13))
    return (field_varint(1, 8) + field_len(2, "tensorgate-browser-test") + field_len(3, "1.0") + opset
            + field_len(7, graph))
