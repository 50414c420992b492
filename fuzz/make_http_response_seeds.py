#!/usr/bin/env python3
"""Writes the seed corpus of http_response_fuzzer, corpus/http_response_fuzzer/seed-*: servers'
answers to the remote client (fuzz/http_response_fuzzer.cpp), good and bad, with the ranges the
client asks for under the fuzzer's options (a 64-byte first window, doubling). Regressions under
corpus/http_response_fuzzer/regressions/ are kept.

usage: fuzz/make_http_response_seeds.py
"""
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "corpus", "http_response_fuzzer")
NEXT = b"\n--next-connection--\n"


def safetensors(tensors):
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, n in tensors:
        header[name] = {"dtype": "U8", "shape": [n], "data_offsets": [offset, offset + n]}
        offset += n
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"\0" * offset


def gguf(keys):
    def string(s):
        return struct.pack("<Q", len(s)) + s.encode()
    kv = b"".join(string(f"general.key{i}") + struct.pack("<I", 8) + string("v" * 40) for i in range(keys))
    info = string("weight") + struct.pack("<IQIQ", 1, 8, 0, 0)
    head = b"GGUF" + struct.pack("<IQQ", 3, 1, keys) + kv + info
    head += b"\0" * (-len(head) % 32)
    return head + b"\0" * 32


def windows(size, wanted_after_first):
    """The client's ranges for a file whose validator still wants `wanted_after_first` bytes after
    the first window: 0-63, then max(wanted, 128) clipped to the size."""
    ranges = [(0, min(63, size - 1))]
    if size > 64:
        ranges.append((64, min(size - 1, 64 + max(wanted_after_first, 128) - 1)))
    return ranges


def partial(data, first, last, extra=b""):
    body = data[first:last + 1]
    return (b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\n" % (first, last, len(data)) + extra +
            b"Content-Length: %d\r\n\r\n" % len(body) + body)


def answer(status, body=b"", extra=b""):
    return b"HTTP/1.1 " + status + b"\r\n" + extra + b"Content-Length: %d\r\n\r\n" % len(body) + body


def seed(name, answers, read_size=0, flags=0):
    with open(os.path.join(OUT, "seed-" + name), "wb") as f:
        f.write(bytes([read_size, flags]) + NEXT.join(answers))


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if name.startswith("seed-"):
            os.remove(os.path.join(OUT, name))
    tiny = safetensors([])  # 8 + a short header, no data
    seed("one-window", [partial(tiny, 0, len(tiny) - 1)])
    big = safetensors([(f"layer.{i}.weight", 4) for i in range(6)])
    header_end = 8 + struct.unpack("<Q", big[:8])[0]
    (a0, a1), (b0, b1) = windows(len(big), header_end - 64)
    etag = b'ETag: "v1"\r\n'
    seed("two-windows-etag", [partial(big, a0, a1, etag) + partial(big, b0, b1, etag)])
    seed("two-windows-byte-reads", [partial(big, a0, a1, etag) + partial(big, b0, b1, etag)], read_size=3)
    seed("changed-etag", [partial(big, a0, a1, etag) + partial(big, b0, b1, b'ETag: "v2"\r\n')])
    seed("precondition-failed", [partial(big, a0, a1, etag) + answer(b"412 Precondition Failed")])
    seed("last-modified", [partial(big, a0, a1, b"Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n") +
                           partial(big, b0, b1, b"Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n")])
    seed("range-ignored", [answer(b"200 OK", big)])
    seed("no-length", [b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + big])
    seed("http10-stream", [b"HTTP/1.0 200 OK\r\n\r\n" + big])
    body = big[a0:a1 + 1]
    chunked = (b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\nTransfer-Encoding: chunked\r\n\r\n"
               % (a0, a1, len(big)) + b"%x;ext=1\r\n" % 40 + body[:40] + b"\r\n" +
               b"%x\r\n" % (len(body) - 40) + body[40:] + b"\r\n0\r\nTrailer: x\r\n\r\n") + partial(big, b0, b1)
    seed("chunked", [chunked])
    seed("redirect-same-origin", [answer(b"302 Found", b"moved", b"Location: /org/repo/elsewhere.safetensors\r\n") +
                                  partial(tiny, 0, len(tiny) - 1)])
    seed("redirect-other-origin", [answer(b"307 Temporary Redirect", b"", b"Location: https://cdn.example/signed?sig=abc\r\n"),
                                   partial(tiny, 0, len(tiny) - 1)], flags=5)
    seed("redirect-to-http", [answer(b"301 Moved Permanently", b"", b"Location: http://hub.example/x\r\n")], flags=1)
    seed("retry-after", [answer(b"429 Too Many Requests", b"wait", b"Retry-After: 0\r\n") +
                         answer(b"503 Service Unavailable") + partial(tiny, 0, len(tiny) - 1)])
    seed("retry-after-date", [answer(b"429 Too Many Requests", b"", b"Retry-After: Sun, 06 Nov 1994 08:49:37 GMT\r\n") +
                              partial(tiny, 0, len(tiny) - 1)])
    seed("empty-file", [answer(b"416 Range Not Satisfiable", b"", b"Content-Range: bytes */0\r\n")])
    seed("interim", [b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" +
                     partial(tiny, 0, len(tiny) - 1)])
    seed("wrong-range", [answer(b"206 Partial Content", big[1:65], b"Content-Range: bytes 1-64/%d\r\n" % len(big))])
    seed("unknown-total", [answer(b"206 Partial Content", big[:64], b"Content-Range: bytes 0-63/*\r\n")])
    seed("not-found", [answer(b"404 Not Found", b"<html>no</html>")])
    seed("unauthorized", [answer(b"401 Unauthorized", b"", b"WWW-Authenticate: Bearer\r\n")], flags=4)
    seed("encoded", [partial(tiny, 0, len(tiny) - 1, b"Content-Encoding: gzip\r\n")])
    seed("keep-alive-closed", [answer(b"302 Found", b"", b"Location: /b\r\nConnection: close\r\n"),
                               partial(tiny, 0, len(tiny) - 1)])
    model = gguf(0)  # the metadata fits the first window
    seed("gguf-one-window", [partial(model, 0, 63)], flags=2)
    seed("gguf-range-ignored", [answer(b"200 OK", gguf(8))], flags=2)

if __name__ == "__main__":
    main()
