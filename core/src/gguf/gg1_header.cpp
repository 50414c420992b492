// GgufValidator: the fixed header (GG1): magic, version and byte order, the two counts.
#include "gguf/validator.hpp"

#include "common/printable.hpp"

namespace tensorgate::detail::gguf {
namespace {

std::string hex_byte(unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("0x") + kHex[c >> 4] + kHex[c & 15];
}

}  // namespace

// The magic is checked byte by byte, so that a file that is not GGUF is refused at its first
// wrong byte, however short it is.
std::size_t GgufValidator::take_magic(const unsigned char* p, std::size_t n) {
  static constexpr unsigned char kMagic[4] = {'G', 'G', 'U', 'F'};
  std::size_t i = 0;
  while (i < n && field_.magic_have < 4) {
    if (p[i] != kMagic[field_.magic_have]) {
      findings_.add(Rule::gg1_magic,
                    "byte " + std::to_string(field_.magic_have) + " is " + hex_byte(p[i]) + ", where the magic GGUF has '" +
                        static_cast<char>(kMagic[field_.magic_have]) + "'",
                    field_.magic_have);
      pos_ += i + 1;
      stop();
      return i + 1;
    }
    ++field_.magic_have;
    ++i;
  }
  pos_ += i;
  if (field_.magic_have == 4) expect(State::version, 4);
  return i;
}

// The version tells the byte order: ggml writes it in the file's own order, so a big-endian
// file shows a byte-swapped 1, 2 or 3.
void GgufValidator::on_version(std::uint32_t raw) {
  const std::uint32_t swapped = __builtin_bswap32(raw);
  if (raw >= 1 && raw <= 3) {
    header_.version = raw;
  } else if (swapped >= 1 && swapped <= 3) {
    header_.version = swapped;
    header_.big_endian = true;
  } else {
    findings_.add(Rule::gg1_version,
                  "version " + std::to_string(raw) + " (byte-swapped " + std::to_string(swapped) +
                      ") is not 1, 2 or 3",
                  field_.pos);
    stop();
    return;
  }
  header_.len_bytes = header_.version == 1 ? 4 : 8;
  if (header_.big_endian) {
    findings_.add(Rule::ggw_byte_order, "the file is big-endian (version " + std::to_string(header_.version) +
                                            " byte-swapped): llama.cpp refuses it", field_.pos);
    note_llama_refuses("the file is big-endian");
  }
  if (header_.version == 1) {
    findings_.add(Rule::ggw_version, "GGUF version 1: llama.cpp no longer loads it", field_.pos);
    note_llama_refuses("GGUF version 1");
  }
  expect(State::tensor_count, header_.len_bytes);
}

// Both counts are read: refute them if their items cannot fit, in any file or in this one. They
// allocate nothing: memory grows with the items actually read.
void GgufValidator::on_counts() {
  header_.end = pos_;
  const unsigned kv_min = header_.len_bytes + 4 + 1;      // key length, value type, a one-byte value
  const unsigned ti_min = header_.len_bytes + 4 + 4 + 8;  // name length, n_dims, type, offset
  const uint128 kv_end = header_.end + static_cast<uint128>(header_.n_kv) * kv_min;
  const uint128 all_end = kv_end + static_cast<uint128>(header_.n_tensors) * ti_min;
  if (kv_end > UINT64_MAX || all_end > UINT64_MAX) {
    const bool kv = kv_end > UINT64_MAX;
    findings_.add(kv ? Rule::gg1_kv_count : Rule::gg1_tensor_count,
                  (kv ? std::to_string(header_.n_kv) + " key-value pairs" : std::to_string(header_.n_tensors) + " tensor infos") +
                      " cannot fit in any file (at least " + std::to_string(kv ? kv_min : ti_min) + " bytes each)",
                  kv ? 8 + header_.len_bytes : 8);
    stop();
    return;
  }
  if (!push_checkpoint(all_end, true)) return;
  // The name table is sized for the tensors this file can hold: at ~21 bytes a name it stays
  // below the 24 bytes each tensor info takes in the file. Without the size, a head start only.
  // Records (~80 bytes) are never reserved: they grow with the infos actually read.
  std::uint64_t room = std::min<std::uint64_t>(header_.n_tensors, total_ ? limits_.gguf.max_tensors : 4096);
  if (total_) room = std::min<std::uint64_t>(room, (*total_ - header_.end) / ti_min);
  if (!charge(static_cast<std::size_t>(room) * DuplicateNames::kBytesPerName)) return;
  est_.names.reserve(static_cast<std::size_t>(room));
  start_kv_section();
}

void GgufValidator::start_kv_section() {
  unit_.index = 0;
  if (header_.n_kv > 0) {
    start_kv();
    return;
  }
  check_metadata();
  start_tensor_infos();
}

// The header's counts, refuted: no file of `file_size` bytes holds that many items.
void GgufValidator::refute(const Checkpoint& c, std::uint64_t file_size) {
  findings_.rollback(c.mark);
  if (!c.header) {
    add_truncation(file_size);
    return;
  }
  const unsigned kv_min = header_.len_bytes + 4 + 1;
  const uint128 kv_end = header_.end + static_cast<uint128>(header_.n_kv) * kv_min;
  const std::string tail = " after the header (which ends at byte " + std::to_string(header_.end) +
                           "), the file has " + std::to_string(file_size);
  if (kv_end > file_size) {
    findings_.add(Rule::gg1_kv_count,
                  std::to_string(header_.n_kv) + " key-value pairs need at least " +
                      std::to_string(static_cast<std::uint64_t>(kv_end - header_.end)) + " bytes" + tail,
                  8 + header_.len_bytes);
  } else {
    findings_.add(Rule::gg1_tensor_count,
                  std::to_string(header_.n_kv) + " key-value pairs and " + std::to_string(header_.n_tensors) +
                      " tensor infos need at least " +
                      std::to_string(static_cast<std::uint64_t>(c.min_end - header_.end)) + " bytes" + tail,
                  8);
  }
}

// The file ended inside the metadata: name the unit it cut.
void GgufValidator::add_truncation(std::uint64_t file_size) {
  const std::string at = "the file ends at byte " + std::to_string(file_size);
  switch (unit_.kind) {
    case Unit::header:
      findings_.add(Rule::gg1_truncated,
                    at + ", inside the header (" + std::to_string(header_.version == 1 ? 16 : 24) +
                        " bytes: magic, version, tensor and key-value counts)",
                    0);
      break;
    case Unit::kv:
      findings_.add(Rule::gg2_truncated,
                    at + ", inside key-value pair #" + std::to_string(unit_.index) +
                        (kv_.key.data() ? " (" + quoted(kv_.key) + ")" : std::string()) + ", which starts at byte " +
                        std::to_string(unit_.start),
                    unit_.start);
      break;
    case Unit::tensor:
      findings_.add(Rule::gg4_truncated,
                    at + ", inside tensor info #" + std::to_string(unit_.index) + ", which starts at byte " +
                        std::to_string(unit_.start),
                    unit_.start, name_of(info_.cur));
      break;
  }
}

}  // namespace tensorgate::detail::gguf
