#!/usr/bin/python3
"""Seeds for openvino_fuzzer: the model.xml files of tests/data/openvino (made by its
make_fixtures.py from OpenVINO's serializer layout) and small variations of them (other element
types, opsets, bodies, edges, entities), each after the split header of fuzz_support.hpp (a
count, then 16-bit cut positions), once whole and once cut in three places.

usage: /usr/bin/python3 fuzz/make_openvino_seeds.py  (writes corpus/openvino_fuzzer/)
"""
import glob
import hashlib
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "corpus", "openvino_fuzzer")
HEAD = '<?xml version="1.0"?>\n'


def layer(lid, type_="Parameter", version="opset1", data='shape="1" element_type="f32"', ports='<output><port id="0"><dim>1</dim></port></output>'):
    return f'<layer id="{lid}" name="l{lid}" type="{type_}" version="{version}"><data {data}/>{ports}</layer>'


def small(layers, edges="", version="11", head=HEAD):
    return f'{head}<net name="m" version="{version}"><layers>{layers}</layers><edges>{edges}</edges><rt_info/></net>\n'


def variations():
    edge = '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>'
    result = '<layer id="1" name="r" type="Result" version="opset1"><input><port id="0"><dim>1</dim></port></input></layer>'
    yield small(layer(0) + result, edge)
    yield small(layer(0) + result, edge, version="10")
    yield small(layer(0) + result, edge, version="12")
    yield small(layer(0) + layer(0))
    for t, shape, size in (("u4", "3", 2), ("u1", "9", 2), ("nf4", "4", 2), ("string", "2", 29), ("bf16", "2", 4),
                           ("f8e4m3", "5", 5), ("i64", "", 8), ("u3", "8", 3), ("f24", "1", 3), ("dynamic", "1", 0)):
        yield small(layer(0, "Const", data=f'element_type="{t}" shape="{shape}" offset="0" size="{size}"'))
    for v in ("opset15", "opset16", "ie_internal_opset", "extension", "my_ops", ""):
        yield small(layer(0, version=v) + result, edge)
    body = ('<layer id="1" name="ti" type="TensorIterator" version="opset1"><input><port id="0"/></input>'
            '<port_map><input external_port_id="0" internal_layer_id="0"/></port_map><body><layers>' + layer(0) + result +
            '</layers><edges>' + edge + '</edges></body></layer>')
    yield small(layer(0) + body, edge)
    yield small(layer(0) + result, '<edge from-layer="0" from-port="3" to-layer="9" to-port="0"/>')
    yield small(layer(0) + result, '<edge from-layer="x"/>')
    yield HEAD + '<net name="a&amp;b&#65;" version="11"><layers/></net>'
    yield HEAD + '<!DOCTYPE net [<!ENTITY e SYSTEM "file:///etc/passwd">]><net version="11">&e;</net>'
    yield HEAD + '<!DOCTYPE net [<!ENTITY % p "x"> %p;]><net version="11"/>'
    yield HEAD + '<net version="11"><![CDATA[<x>]]><!-- c --></net>'
    yield HEAD + '<net version="11">' + "<a>" * 80 + "</a>" * 80 + "</net>"
    yield HEAD + '<project><modelVersion>4</modelVersion></project>'
    yield '\ufeff<net version="11"/>'
    yield HEAD + '<net version="11"><layers>'


def seeds():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "openvino", "*.xml"))):
        with open(path, "rb") as f:
            yield f.read()
    for v in variations():
        yield v.encode("utf-8")


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    for data in seeds():
        for cuts in ((), (len(data) // 3, len(data) // 2, len(data) - 5), (1, 7, 64)):
            head = bytes([len(cuts)]) + b"".join(struct.pack("<H", c & 0xFFFF) for c in cuts)
            seed = head + data
            with open(os.path.join(OUT, hashlib.sha1(seed).hexdigest()), "wb") as f:
                f.write(seed)
            n += 1
    print(f"{n} seeds in {OUT}")


main()
