#include "pickle_builder.hpp"

namespace tgtest {
namespace {

void le(std::string& out, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::uint64_t elements(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

}  // namespace

PickleBuilder& PickleBuilder::proto(int p) {
  out_ += '\x80';
  out_ += static_cast<char>(p);
  return *this;
}

PickleBuilder& PickleBuilder::op(std::uint8_t o) {
  out_ += static_cast<char>(o);
  return *this;
}

PickleBuilder& PickleBuilder::raw(std::string_view bytes) {
  out_ += bytes;
  return *this;
}

PickleBuilder& PickleBuilder::global(std::string_view module, std::string_view name) {
  out_ += 'c';
  out_ += module;
  out_ += '\n';
  out_ += name;
  out_ += '\n';
  return *this;
}

PickleBuilder& PickleBuilder::inst(std::string_view module, std::string_view name) {
  out_ += 'i';
  out_ += module;
  out_ += '\n';
  out_ += name;
  out_ += '\n';
  return *this;
}

PickleBuilder& PickleBuilder::str(std::string_view s) {
  if (s.size() < 256) {
    out_ += '\x8c';
    le(out_, s.size(), 1);
  } else {
    out_ += 'X';
    le(out_, s.size(), 4);
  }
  out_ += s;
  return *this;
}

PickleBuilder& PickleBuilder::binunicode8(std::string_view s) {
  out_ += '\x8d';
  le(out_, s.size(), 8);
  out_ += s;
  return *this;
}

PickleBuilder& PickleBuilder::binstring(std::string_view s) {
  if (s.size() < 256) {
    out_ += 'U';
    le(out_, s.size(), 1);
  } else {
    out_ += 'T';
    le(out_, s.size(), 4);
  }
  out_ += s;
  return *this;
}

PickleBuilder& PickleBuilder::bytes(std::string_view s) {
  if (s.size() < 256) {
    out_ += 'C';
    le(out_, s.size(), 1);
  } else {
    out_ += 'B';
    le(out_, s.size(), 4);
  }
  out_ += s;
  return *this;
}

PickleBuilder& PickleBuilder::line(std::uint8_t o, std::string_view text) {
  out_ += static_cast<char>(o);
  out_ += text;
  out_ += '\n';
  return *this;
}

PickleBuilder& PickleBuilder::integer(std::int64_t v) {
  if (v >= 0 && v < 256) {
    out_ += 'K';
    le(out_, static_cast<std::uint64_t>(v), 1);
  } else if (v >= 0 && v < 65536) {
    out_ += 'M';
    le(out_, static_cast<std::uint64_t>(v), 2);
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    out_ += 'J';
    le(out_, static_cast<std::uint64_t>(v), 4);
  } else {
    out_ += "\x8a\x08";  // LONG1, eight bytes of two's complement
    le(out_, static_cast<std::uint64_t>(v), 8);
  }
  return *this;
}

PickleBuilder& PickleBuilder::put(std::uint32_t i) {
  if (i < 256) {
    out_ += 'q';
    le(out_, i, 1);
  } else {
    out_ += 'r';
    le(out_, i, 4);
  }
  return *this;
}

PickleBuilder& PickleBuilder::get(std::uint32_t i) {
  if (i < 256) {
    out_ += 'h';
    le(out_, i, 1);
  } else {
    out_ += 'j';
    le(out_, i, 4);
  }
  return *this;
}

PickleBuilder& PickleBuilder::memoize() { return op(0x94); }
PickleBuilder& PickleBuilder::mark() { return op('('); }
PickleBuilder& PickleBuilder::tuple() { return op('t'); }
PickleBuilder& PickleBuilder::tuple_n(int n) {
  static constexpr std::uint8_t kOps[] = {')', 0x85, 0x86, 0x87};
  return op(kOps[n]);
}
PickleBuilder& PickleBuilder::stack_global() { return op(0x93); }
PickleBuilder& PickleBuilder::reduce() { return op('R'); }
PickleBuilder& PickleBuilder::build() { return op('b'); }
PickleBuilder& PickleBuilder::stop() { return op('.'); }

PickleBuilder& PickleBuilder::frame(std::uint64_t length) {
  out_ += '\x95';
  le(out_, length, 8);
  return *this;
}

PickleBuilder& PickleBuilder::call(std::string_view module, std::string_view name, std::string_view arg, bool sg) {
  if (sg) {
    str(module).str(name).stack_global();
  } else {
    global(module, name);
  }
  return str(arg).tuple_n(1).reduce();
}

std::string state_dict_pickle(const std::vector<TorchTensor>& tensors) {
  PickleBuilder b;
  b.proto(2).global("collections", "OrderedDict").put(0).tuple_n(0).reduce().put(1).mark();
  std::uint32_t memo = 2;
  bool rebuild_memoised = false;
  std::uint32_t rebuild_index = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const TorchTensor& t = tensors[i];
    b.str(t.name).put(memo++);
    if (rebuild_memoised) {
      b.get(rebuild_index);
    } else {
      b.global("torch._utils", "_rebuild_tensor_v2").put(rebuild_index = memo++);
      rebuild_memoised = true;
    }
    b.mark();
    // The persistent id: ('storage', torch.<Class>, key, 'cpu', numel), then BINPERSID.
    b.mark().str("storage").global("torch", t.storage_class).str(t.key.empty() ? std::to_string(i) : t.key).str("cpu");
    b.integer(static_cast<std::int64_t>(elements(t.shape))).tuple().op('Q');
    b.integer(0);  // storage offset
    b.mark();
    for (const auto d : t.shape) b.integer(static_cast<std::int64_t>(d));
    b.tuple();
    // contiguous strides
    b.mark();
    std::uint64_t stride = 1;
    std::vector<std::uint64_t> strides(t.shape.size());
    for (std::size_t k = t.shape.size(); k-- > 0;) {
      strides[k] = stride;
      stride *= t.shape[k];
    }
    for (const auto s : strides) b.integer(static_cast<std::int64_t>(s));
    b.tuple();
    b.op(0x89);  // requires_grad False
    b.global("collections", "OrderedDict").tuple_n(0).reduce();  // backward hooks
    b.tuple().reduce().put(memo++);
  }
  b.op('u');  // SETITEMS
  return b.stop().bytes();
}

std::string legacy_torch_stream(const std::vector<TorchTensor>& tensors) {
  PickleBuilder b;
  // 0x1950a86a20f9469cfc6c as LONG1, then 1001, then {'protocol_version': 1001}.
  b.proto(2).raw("\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19").stop();
  b.proto(2).integer(1001).stop();
  b.proto(2).op('}').str("protocol_version").integer(1001).op('s').stop();
  b.raw(state_dict_pickle(tensors));
  b.proto(2).op(']').mark();
  for (std::size_t i = 0; i < tensors.size(); ++i) b.str(tensors[i].key.empty() ? std::to_string(i) : tensors[i].key);
  b.op('e').stop();
  std::string out = b.bytes();
  for (const TorchTensor& t : tensors) {
    le(out, elements(t.shape), 8);
    out.append(4 * elements(t.shape), '\0');
  }
  return out;
}

}  // namespace tgtest
