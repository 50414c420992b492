"""The soak's worst-case files, written at run time into a temporary directory (never committed).

Each comes valid and invalid (the error only at the end of its header, so the whole header is
buffered and parsed first):
  - a safetensors header of exactly HEADER bytes holding one metadata value;
  - a safetensors header of COUNT one-byte tensors;
  - a GGUF v3 file whose `tokenizer.ggml.tokens` array holds STRINGS strings.
"""
import os
import struct


def _safetensors(path, header, data):
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)))
        f.write(header)
        f.write(data)


def big_metadata_value(path, header_bytes, valid=True):
    """One metadata value that fills a header of exactly `header_bytes` bytes."""
    dtype = "U8" if valid else "U9"  # U9: ST4.dtype, seen after the whole value
    skeleton = '{"__metadata__":{"pad":"%s"},"t":{"dtype":"' + dtype + '","shape":[1],"data_offsets":[0,1]}}'
    fill = header_bytes - (len(skeleton) - 2)
    if fill < 1:
        raise ValueError("header_bytes too small")
    _safetensors(path, (skeleton % ("x" * fill)).encode(), b"\0")


def many_tensors(path, count, valid=True):
    """`count` one-byte U8 tensors tiling a `count`-byte data section."""
    parts = ['"t%07d":{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (i, i, i + 1)
             for i in range(count - 1)]
    last = count - 1
    # Invalid: the last tensor overlaps the one before it (ST5), found after the whole parse.
    begin = last if valid else last - 1
    parts.append('"t%07d":{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (last, begin, begin + 1))
    header = ("{" + ",".join(parts) + "}").encode()
    header += b" " * (-len(header) % 8)
    _safetensors(path, header, b"\0" * count)


def _gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf_string_array(path, count, valid=True):
    """A GGUF v3 file with no tensors and a `count`-string token array. Invalid: the array
    announces one string more than the file holds (GG2, at the end)."""
    out = [b"GGUF", struct.pack("<IQQ", 3, 0, 2)]
    out.append(_gguf_string("general.architecture") + struct.pack("<I", 8) + _gguf_string("llama"))
    announced = count if valid else count + 1
    out.append(_gguf_string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, announced))
    out.extend(_gguf_string("tok%07d" % i) for i in range(count))
    with open(path, "wb") as f:
        f.write(b"".join(out))


def write_all(directory, header_bytes, tensors, strings):
    """Writes the six files; returns their paths."""
    paths = []
    for valid in (True, False):
        tag = "valid" if valid else "invalid"
        p = os.path.join(directory, "metadata-value-%s.safetensors" % tag)
        big_metadata_value(p, header_bytes, valid)
        paths.append(p)
        p = os.path.join(directory, "tensors-%s.safetensors" % tag)
        many_tensors(p, tensors, valid)
        paths.append(p)
        p = os.path.join(directory, "strings-%s.gguf" % tag)
        gguf_string_array(p, strings, valid)
        paths.append(p)
    return paths


if __name__ == "__main__":
    import sys
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    for p in write_all(d, int(os.environ.get("HEADER", 1000000)), int(os.environ.get("TENSORS", 1000)),
                       int(os.environ.get("STRINGS", 1000))):
        print(p, os.path.getsize(p))
