#!/usr/bin/python3
"""OpenVINO IR fixtures: model.xml files with their .bin weights, benign and hostile.

OpenVINO's writer is not installed, so the files are built from its published layout:
- the XML is what src/core/src/pass/serialize.cpp (openvinotoolkit/openvino) writes: <?xml
  version="1.0"?>, <net name version="11"> (IR v10: version="10"), <layers> of <layer id name
  type version> each with <data> (a Const's element_type, shape, offset, size), <input> and
  <output> <port id precision names> holding <dim> elements, then <edges> of <edge from-layer
  from-port to-layer to-port>, then the net's <rt_info>;
- the .bin is the Const layers' bytes one after the other, as serialize.cpp's ConstantWriter
  writes them (little-endian, no padding);
- the element type names are those of src/core/src/type/element_type.cpp.
The hostile files follow the classic XML attacks (an external entity naming /etc/passwd, the
billion laughs' nested entities) and break one rule each.

usage: /usr/bin/python3 tests/data/openvino/make_fixtures.py  (writes beside itself)
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def port(pid, dims, precision="FP32", names=None):
    n = f' names="{names}"' if names else ""
    return f'<port id="{pid}" precision="{precision}"{n}>' + "".join(f"<dim>{d}</dim>" for d in dims) + "</port>"


def layer(lid, name, type_, version="opset1", data="", inputs=(), outputs=(), rt=True):
    body = f'\t\t<layer id="{lid}" name="{name}" type="{type_}" version="{version}">\n'
    if data:
        body += f"\t\t\t<data {data}/>\n"
    if rt:
        body += f'\t\t\t<rt_info>\n\t\t\t\t<attribute name="fused_names" version="0" value="{name}"/>\n\t\t\t</rt_info>\n'
    if inputs:
        body += "\t\t\t<input>\n" + "".join(f"\t\t\t\t{p}\n" for p in inputs) + "\t\t\t</input>\n"
    if outputs:
        body += "\t\t\t<output>\n" + "".join(f"\t\t\t\t{p}\n" for p in outputs) + "\t\t\t</output>\n"
    return body + "\t\t</layer>\n"


def net(layers, edges, version=11, name="tiny_mlp", head='<?xml version="1.0"?>\n', rt_info=True):
    xml = head + f'<net name="{name}" version="{version}">\n\t<layers>\n' + "".join(layers) + "\t</layers>\n\t<edges>\n"
    xml += "".join(f'\t\t<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}"/>\n' for a, b, c, d in edges)
    xml += "\t</edges>\n"
    if rt_info:
        xml += ('\t<rt_info>\n\t\t<MO_version value="2024.0.0"/>\n\t\t<Runtime_version value="2024.0.0"/>\n'
                '\t\t<conversion_parameters>\n\t\t\t<framework value="pytorch"/>\n\t\t\t<is_python_object value="True"/>\n'
                '\t\t</conversion_parameters>\n\t</rt_info>\n')
    return xml + "</net>\n"


def mlp(weight_type="f32", version="opset1", add_version="opset1", w_size=None, b_offset=None, ir=11, name="tiny_mlp"):
    """Parameter [1,4] -> MatMul with a [3,4] Const (transposed) -> Add a [3] Const -> Result.
    Returns (xml, bin bytes)."""
    rng = np.random.default_rng(3)
    w = (rng.standard_normal((3, 4)) * 0.02).astype(np.float32).tobytes()
    b = np.arange(3, dtype=np.float32).tobytes()
    w_size = len(w) if w_size is None else w_size
    b_offset = len(w) if b_offset is None else b_offset
    layers = [
        layer(0, "input", "Parameter", data='shape="1,4" element_type="f32"', outputs=[port(0, [1, 4], names="input")]),
        layer(1, "weight", "Const", version, f'element_type="{weight_type}" shape="3,4" offset="0" size="{w_size}"',
              outputs=[port(0, [3, 4])]),
        layer(2, "matmul", "MatMul", data='transpose_a="false" transpose_b="true"',
              inputs=[port(0, [1, 4]), port(1, [3, 4])], outputs=[port(2, [1, 3])]),
        layer(3, "bias", "Const", data=f'element_type="f32" shape="3" offset="{b_offset}" size="{len(b)}"',
              outputs=[port(0, [3])]),
        layer(4, "add", "Add", add_version, 'auto_broadcast="numpy"', inputs=[port(0, [1, 3]), port(1, [3])],
              outputs=[port(2, [1, 3], names="output")]),
        layer(5, "output", "Result", inputs=[port(0, [1, 3])]),
    ]
    edges = [(0, 0, 2, 0), (1, 0, 2, 1), (2, 2, 4, 0), (3, 0, 4, 1), (4, 2, 5, 0)]
    return net(layers, edges, version=ir, name=name), w + b


def write(name, text, weights=None):
    with open(os.path.join(HERE, name + ".xml"), "w") as f:
        f.write(text)
    if weights is not None:
        with open(os.path.join(HERE, name + ".bin"), "wb") as f:
            f.write(weights)


def main():
    xml, weights = mlp()
    write("model", xml, weights)  # the benign IR v11 model and its weights
    xml, weights = mlp(ir=10, name="tiny_mlp_v10")
    write("model_v10", xml, weights)

    # Hostile: the XML attacks, refused before anything is expanded (OV.doctype).
    xml, weights = mlp()
    body = xml.split("\n", 1)[1]
    write("xxe", '<?xml version="1.0"?>\n<!DOCTYPE net [\n  <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n' +
          body.replace('name="tiny_mlp"', 'name="&xxe;"'), weights)
    laughs = "".join(f'  <!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">\n' for i in range(1, 10))
    write("billion_laughs", '<?xml version="1.0"?>\n<!DOCTYPE net [\n  <!ENTITY lol0 "lol">\n' + laughs + ']>\n' +
          body.replace('name="tiny_mlp"', 'name="&lol9;"'), weights)
    write("doctype", '<?xml version="1.0"?>\n<!DOCTYPE net>\n' + body, weights)
    write("entity_ref", xml.replace('name="tiny_mlp"', 'name="&undeclared;"'), weights)
    # Nesting past Limits::openvino.max_depth (64) inside the net's rt_info.
    deep = "<a>" * 100 + "</a>" * 100
    write("deep", xml.replace("\t</rt_info>\n</net>", deep + "\n\t</rt_info>\n</net>"), weights)

    # The pair and the Const layers.
    xml, weights = mlp()
    write("past_bin", xml, weights[:50])  # the bias (offset 48, size 12) ends past a 50-byte .bin
    xml, weights = mlp(w_size=44)  # shape 3x4 of f32 is 48 bytes
    write("size_mismatch", xml, weights)
    xml, weights = mlp(weight_type="f24")
    write("unknown_type", xml, weights)
    xml, weights = mlp(add_version="my_custom_ops")
    write("custom_opset", xml, weights)
    xml, weights = mlp()
    write("unused_bytes", xml, weights + b"\0" * 16)
    xml, _ = mlp()
    write("missing_bin", xml)
    # An edge to a port layer 5 does not have.
    xml, weights = mlp()
    write("bad_edge", xml.replace('to-layer="5" to-port="0"', 'to-layer="5" to-port="7"'), weights)


main()
