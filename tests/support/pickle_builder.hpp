#pragma once
// Builds pickle bytes for tests, opcode by opcode (no Python at test time): benign and hostile
// streams of every protocol, torch state dicts as torch.save's data.pkl writes them, and the
// legacy (pre-zip) torch.save stream.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tgtest {

class PickleBuilder {
 public:
  PickleBuilder& proto(int p);
  PickleBuilder& op(std::uint8_t o);            // any opcode byte, no argument
  PickleBuilder& raw(std::string_view bytes);   // bytes as they are
  PickleBuilder& global(std::string_view module, std::string_view name);  // GLOBAL
  PickleBuilder& inst(std::string_view module, std::string_view name);    // INST
  PickleBuilder& str(std::string_view s);       // SHORT_BINUNICODE, or BINUNICODE when longer
  PickleBuilder& binunicode8(std::string_view s);
  PickleBuilder& binstring(std::string_view s); // SHORT_BINSTRING or BINSTRING
  PickleBuilder& bytes(std::string_view s);     // SHORT_BINBYTES or BINBYTES
  PickleBuilder& line(std::uint8_t o, std::string_view text);  // a line opcode: INT, STRING, UNICODE, ...
  PickleBuilder& integer(std::int64_t v);       // BININT1, BININT2, BININT or LONG1
  PickleBuilder& put(std::uint32_t i);          // BINPUT or LONG_BINPUT
  PickleBuilder& get(std::uint32_t i);          // BINGET or LONG_BINGET
  PickleBuilder& memoize();
  PickleBuilder& mark();
  PickleBuilder& tuple();                       // TUPLE (after a mark)
  PickleBuilder& tuple_n(int n);                // EMPTY_TUPLE, TUPLE1, TUPLE2, TUPLE3
  PickleBuilder& stack_global();
  PickleBuilder& reduce();
  PickleBuilder& build();
  PickleBuilder& stop();
  PickleBuilder& frame(std::uint64_t length);
  // A call module.name(arg) through GLOBAL or STACK_GLOBAL (protocol 4), e.g. os.system('id').
  PickleBuilder& call(std::string_view module, std::string_view name, std::string_view arg, bool stack_global = false);
  std::string bytes() const { return out_; }

 private:
  std::string out_;
};

// One tensor of a state dict as torch.save pickles it: _rebuild_tensor_v2 of a storage
// ('storage', torch.<storage_class>, key, 'cpu', numel).
struct TorchTensor {
  std::string name;
  std::string storage_class = "FloatStorage";
  std::vector<std::uint64_t> shape;
  std::string key = {};  // the storage key; empty: the tensor's index
};

// The data.pkl of a torch.save archive, or the data pickle of the legacy stream: an
// OrderedDict of the tensors, protocol 2, memoised as CPython's pickler memoises.
std::string state_dict_pickle(const std::vector<TorchTensor>& tensors);
// The legacy torch.save stream: magic number, protocol version, system info, the data, the
// storage keys, then each storage as an 8-byte element count and its bytes (element size 4).
std::string legacy_torch_stream(const std::vector<TorchTensor>& tensors);

}  // namespace tgtest
