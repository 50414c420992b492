// GgufValidator: tensor infos (GG4): name, shape, ggml type and offset, with every size exact.
#include <charconv>

#include "common/printable.hpp"
#include "gguf/validator.hpp"
#include "table_access.hpp"

namespace tensorgate::detail::gguf {
namespace {

bool printable_ascii(std::string_view s) {
  for (const char ch : s)
    if (static_cast<unsigned char>(ch) - 0x20u >= 0x5fu) return false;
  return true;
}

// N of a "blk.N." name: the block it belongs to (llama.cpp's layer naming).
std::optional<std::uint64_t> block_index(std::string_view name) {
  if (!name.starts_with("blk.")) return std::nullopt;
  name.remove_prefix(4);
  const std::size_t dot = name.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot > 9) return std::nullopt;
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + dot, n);
  if (ec != std::errc() || end != name.data() + dot) return std::nullopt;
  return n;
}

std::string_view removed_type_name(std::uint64_t t) {
  switch (t) {
    case 4: return "Q4_2";
    case 5: return "Q4_3";
    case 31: return "Q4_0_4_4";
    case 32: return "Q4_0_4_8";
    case 33: return "Q4_0_8_8";
    case 36: return "IQ4_NL_4_4";
    case 37: return "IQ4_NL_4_8";
    case 38: return "IQ4_NL_8_8";
    default: return {};
  }
}

}  // namespace

void GgufValidator::start_tensor_infos() {
  if (state_ == State::stopped) return;
  layout_.alignment = est_.facts.alignment.value_or(32);
  unit_.index = 0;
  if (header_.n_tensors == 0) {
    infos_done();
    return;
  }
  start_tensor();
}

void GgufValidator::start_tensor() {
  unit_.kind = Unit::tensor;
  unit_.start = pos_;
  if (unit_.index >= limits_.gguf.max_tensors) {
    abort_with("gguf-tensor-count", "more than this validator's limit of " +
                                        std::to_string(limits_.gguf.max_tensors) + " tensor infos");
    return;
  }
  info_.cur = GgufTensorTable::Record{};
  info_.cur.info_pos = pos_;
  info_.cur.name_known = false;
  info_.type = 0;
  info_.dim_index = 0;
  expect(State::name_len, header_.len_bytes);
}

void GgufValidator::on_name_length(std::uint64_t len) {
  if (len > kMaxName)
    findings_.add(Rule::gg4_name_length,
                  "tensor info #" + std::to_string(unit_.index) + " has a name of " + std::to_string(len) +
                      " bytes, more than 64",
                  field_.pos);
  start_string(len, StrKind::name);
}

void GgufValidator::on_name(std::string_view name) {
  info_.cur.name_known = str_.buffer;
  if (info_.cur.name_known) {
    std::size_t allocated = 0;
    info_.cur.name = est_.names_arena->store(name, allocated);
    if (!charge(allocated + DuplicateNames::kBytesPerName)) return;
    est_.names.add(static_cast<std::uint32_t>(unit_.index), info_.cur.name);  // duplicates: at the end of the infos
    name = info_.cur.name;
    if (name.size() == kMaxName) {
      findings_.add(Rule::ggw_name_length, "a 64-byte name: llama.cpp needs 63 bytes or fewer", unit_.start, name);
      note_llama_refuses("a 64-byte tensor name");
    }
    // Printable ASCII (almost every name) is valid UTF-8 without a control character or NUL:
    // one pass instead of three.
    if (!printable_ascii(name)) {
      if (!valid_utf8(name)) findings_.add(Rule::ggw_name_utf8, "the name is not valid UTF-8", unit_.start, name);
      if (has_control(name)) findings_.add(Rule::ggw_name_control, "the name holds a control character", unit_.start, name);
      est_.nul_names = est_.nul_names || name.find('\0') != std::string_view::npos;
    }
    if (const auto b = block_index(name)) est_.max_block = std::max(est_.max_block.value_or(0), *b);
  }
  expect(State::n_dims, 4);
}

// GG4.duplicate-name once every name is in: a radix sort of the names' hashes groups equal
// names without a probe of a large hash table per name (common/duplicate_names.hpp).
void GgufValidator::report_duplicate_names() {
  auto& records = GgufTableBuilder::records(*est_.table);
  const auto name_of = [&records](std::uint32_t i) { return records[i].name; };
  for (const std::uint32_t i : est_.names.later_duplicates(name_of)) {
    auto& r = records[i];
    r.duplicate = true;
    findings_.add(Rule::gg4_duplicate_name, "a second tensor info of this name", r.info_pos, r.name);
  }
  if (est_.nul_names) check_name_collisions();
}

// llama.cpp compares names as C strings: "t\0a" is "t" there, and collides with "t" or "t\0b".
// In file order, as a reader that kept the names so far would see them.
void GgufValidator::check_name_collisions() {
  StringSet names, cut_names;  // the names so far; those with a NUL, cut there
  for (const auto& r : GgufTableBuilder::records(*est_.table)) {
    if (!r.name_known || r.duplicate) continue;
    const std::size_t nul = r.name.find('\0');
    const std::string_view cut = r.name.substr(0, nul);
    const bool collides = nul == std::string_view::npos ? cut_names.contains(r.name)
                                                        : names.contains(cut) || cut_names.contains(cut);
    if (collides) {
      findings_.add(Rule::ggw_name_collision,
                    "llama.cpp cuts names at NUL, and there this name is " + quoted(cut) + ", the name of another tensor",
                    r.info_pos, r.name);
      note_llama_refuses("two tensor names that agree up to a NUL");
    }
    names.insert(r.name);
    if (nul != std::string_view::npos) cut_names.insert(cut);
  }
}

void GgufValidator::on_n_dims(std::uint64_t n) {
  if (n > 4) {
    findings_.add(Rule::gg4_n_dims, std::to_string(n) + " dimensions, more than ggml's 4", field_.pos,
                  name_of(info_.cur));
    stop();
    return;
  }
  info_.cur.n_dims = static_cast<std::uint8_t>(n);
  expect(n == 0 ? State::tensor_type : State::dim, n == 0 ? 4 : header_.len_bytes);
}

void GgufValidator::on_dim(std::uint64_t d) {
  info_.dim_pos[info_.dim_index] = field_.pos;
  info_.cur.dims[info_.dim_index++] = d;
  if (info_.dim_index < info_.cur.n_dims) expect(State::dim, header_.len_bytes);
  else expect(State::tensor_type, 4);
}

void GgufValidator::on_tensor_type(std::uint64_t t) {
  info_.type = t;
  info_.type_pos = field_.pos;
  expect(State::tensor_offset, 8);
}

void GgufValidator::tensor_done(std::uint64_t offset) {
  info_.cur.offset = offset;
  size_tensor(info_.cur);
  auto& records = GgufTableBuilder::records(*est_.table);
  // The budget pays for the chunk a record opens, as allocated, not for the record alone.
  if (records.full() && !charge(records.next_chunk_bytes())) return;
  records.push_back(info_.cur);
  ++unit_.index;
  if (unit_.index < header_.n_tensors) start_tensor();
  else infos_done();
}

// GG4: the dimensions, the element count and the byte size, exact (128-bit where needed).
void GgufValidator::size_tensor(GgufTensorTable::Record& r) {
  const auto tensor = name_of(r);
  bool ok = true;
  bool zero = false;
  for (unsigned i = 0; i < r.n_dims; ++i) {
    zero = zero || r.dims[i] == 0;
    if (r.dims[i] <= INT64_MAX) continue;
    findings_.add(Rule::gg4_dim, "dimension " + std::to_string(i) + " is " + std::to_string(r.dims[i]) + ", above 2^63-1",
                  info_.dim_pos[i], tensor);
    ok = false;
  }
  const GgmlTypeInfo* type = ggml_type_info(info_.type <= UINT32_MAX ? static_cast<std::uint32_t>(info_.type) : 99);
  if (!type) {
    const std::string_view removed = removed_type_name(info_.type);
    findings_.add(Rule::gg4_type,
                  "ggml type " + std::to_string(info_.type) +
                      (removed.empty() ? std::string(" is unknown") : " (" + std::string(removed) + ") was removed from ggml"),
                  info_.type_pos, tensor);
    ok = false;
  }
  if (!ok) return;
  // The exact element count: a zero dimension makes it zero, otherwise it only grows.
  uint128 elements = 1;
  for (unsigned i = 0; i < r.n_dims && !zero; ++i) {
    elements *= r.dims[i];
    if (elements <= INT64_MAX) continue;
    findings_.add(Rule::gg4_element_count, "the dimensions multiply to more than 2^63-1 elements", dims_pos(), tensor);
    return;
  }
  if (zero) elements = 0;
  const std::uint64_t ne0 = r.n_dims ? r.dims[0] : 1;
  if (ne0 % type->block_size != 0) {
    findings_.add(Rule::gg4_block_size,
                  "the first dimension, " + std::to_string(ne0) + ", is not a multiple of " + std::string(type->name) +
                      "'s block size " + std::to_string(type->block_size),
                  dims_pos(), tensor);
    return;
  }
  const uint128 bytes = elements / type->block_size * type->type_size;
  if (bytes > UINT64_MAX) {
    findings_.add(Rule::gg4_byte_size,
                  "the tensor's " + std::string(type->name) + " data would take more than 2^64-1 bytes", dims_pos(), tensor);
    return;
  }
  r.type = static_cast<std::uint8_t>(type->id);
  r.bytes = static_cast<std::uint64_t>(bytes);
  r.sized = true;
}

}  // namespace tensorgate::detail::gguf
