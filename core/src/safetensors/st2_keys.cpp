// HeaderHandler: keys. At the root a key is __metadata__ or a tensor name (duplicate names are
// found after the parse, common/duplicate_names.hpp); inside an entry, a field name; anywhere else
// a generic key, checked for duplicates after unescaping (ST2.duplicate-key).
#include "safetensors/header_handler.hpp"

#include <string>

#include "common/printable.hpp"
#include "safetensors/st2_duplicate_names.hpp"

namespace tensorgate::detail {
namespace {

std::string_view sv(boost::json::string_view s) { return {s.data(), s.size()}; }

}  // namespace

HeaderHandler::HeaderHandler(TableBuilder& table, FindingList& findings, TableAllowance& allowance,
                             std::uint32_t max_depth, std::size_t expected_tensors)
    : table_(table),
      findings_(findings),
      allowance_(allowance),
      header_begin_(table.header().data()),
      header_end_(table.header().data() + table.header().size()),
      names_(expected_tensors) {
  frames_.reserve(max_depth + 1);  // the records are reserved by parse_header
}

void HeaderHandler::add(Rule rule, std::string message, std::optional<std::uint64_t> pos) {
  findings_.add(rule, std::move(message), 8 + pos.value_or(last_pos_), entry_name());
}

std::optional<std::string_view> HeaderHandler::entry_name() const {
  if (!in_entry_ && want_ != Want::entry) return std::nullopt;
  return table_.str(table_.record(entry_.record).name);
}

void HeaderHandler::push(Ctx ctx) { frames_.push_back(Frame{ctx, nullptr}); }

bool HeaderHandler::cover_more(std::size_t bytes, error_code& ec) {
  if (allowance_.cover(bytes)) {
    covered_bytes_ = allowance_.covered();
    return true;
  }
  ec = make_error_code(boost::system::errc::not_enough_memory);
  return false;
}

// Keys and strings may arrive in pieces (escapes are unescaped into a temporary buffer). A
// string that lies whole in the header is referenced in place; anything else is copied.
StrRef HeaderHandler::collect(string_view s, bool final) {
  const std::string_view piece = sv(s);
  if (!collecting_ && final && piece.data() > header_begin_ && piece.data() + piece.size() <= header_end_) {
    // The common case: a whole key or string without escapes, referenced in place.
    collected_pos_ = static_cast<std::uint64_t>(piece.data() - header_begin_ - 1);
    collected_ = table_.header_ref(piece);
    return collected_;
  }
  if (!collecting_) {
    const bool in_place = table_.in_header(piece);
    collected_pos_ = in_place && piece.data() > table_.header().data()
                         ? static_cast<std::uint64_t>(piece.data() - table_.header().data() - 1)
                         : last_pos_;
    collected_ = in_place ? table_.header_ref(piece) : table_.arena_append(piece);
    collecting_ = !final;
    return collected_;
  }
  if (!collected_.in_arena) collected_ = table_.arena_append(table_.str(collected_));
  table_.arena_extend(collected_, piece);
  collecting_ = !final;
  return collected_;
}

bool HeaderHandler::on_key_part(string_view s, std::size_t, error_code&) {
  collect(s, false);
  return true;
}

bool HeaderHandler::on_key(string_view s, std::size_t, error_code& ec) {
  const StrRef key = collect(s, true);
  last_pos_ = collected_pos_;
  switch (frames_.back().ctx) {
    case Ctx::root: on_root_key(key); break;
    case Ctx::entry: on_entry_key(key); break;
    case Ctx::metadata: on_generic_key(key, true); break;
    default: on_generic_key(key, false); break;
  }
  return covered(ec);
}

void HeaderHandler::on_root_key(StrRef key) {
  in_entry_ = false;
  if (table_.str(key) == "__metadata__") {
    want_ = Want::metadata;
    if (metadata_seen_) {
      add(Rule::st2_duplicate_key, "duplicate key \"__metadata__\"");
      add(Rule::stw_reference_differs, "the reference reader rejects a duplicate \"__metadata__\" too (duplicate field)");
    }
    metadata_seen_ = true;
    return;
  }
  auto& rec = table_.add_record();
  rec.name = key;
  rec.key_pos = static_cast<std::uint32_t>(collected_pos_) & ((1u << 27) - 1);
  entry_ = Entry{};
  entry_.record = table_.record_count() - 1;
  want_ = Want::entry;
  names_.add(static_cast<std::uint32_t>(entry_.record), table_.str(key));
  name_key_bytes_ += DuplicateNames::kBytesPerName;
}

void HeaderHandler::report_duplicate_names() { detail::report_duplicate_names(names_, table_, findings_); }

void report_duplicate_names(DuplicateNames& names, TableBuilder& table, FindingList& findings) {
  const auto name_of = [&table](std::uint32_t i) { return table.str(table.record(i).name); };
  for (const std::uint32_t i : names.later_duplicates(name_of)) {
    auto& rec = table.record(i);
    rec.flags |= TensorTable::kDuplicate;
    const std::string_view name = table.str(rec.name);
    findings.add(Rule::st2_duplicate_key, "duplicate tensor name", 8 + rec.key_pos, name);
    findings.add(Rule::stw_reference_differs, "the reference reader keeps the last entry of a duplicate name",
                 8 + rec.key_pos, name);
  }
}

void HeaderHandler::on_entry_key(StrRef key) {
  const std::string_view k = table_.str(key);
  const std::uint8_t bit = k == "dtype"          ? kDtypeBit
                           : k == "shape"        ? kShapeBit
                           : k == "data_offsets" ? kOffsetsBit
                                                 : 0;
  if (bit == 0) {
    on_generic_key(key, false);
    add(Rule::stw_unknown_field, "unknown field " + quoted(k) + " in the tensor entry");
    return;
  }
  if (entry_.seen & bit) add(Rule::st2_duplicate_key, "duplicate field " + quoted(k));
  entry_.seen |= bit;
  want_ = bit == kDtypeBit ? Want::dtype : bit == kShapeBit ? Want::shape : Want::offsets;
}

void HeaderHandler::on_generic_key(StrRef key, bool in_metadata) {
  Frame& f = frames_.back();
  if (!f.keys) f.keys = std::make_unique<KeySet>(0, RefHash{&table_}, RefEq{&table_});
  const std::size_t slots = f.keys->bucket_count();
  const bool fresh = f.keys->insert(key).second;
  key_set_bytes_ += (f.keys->bucket_count() - slots) * kKeySetSlotBytes;
  if (!fresh) {
    add(Rule::st2_duplicate_key, "duplicate key " + quoted(table_.str(key)));
    if (in_metadata)
      add(Rule::stw_reference_differs, "the reference reader keeps the last duplicate metadata key");
  }
  if (in_metadata) {
    meta_key_ = key;
    meta_key_pos_ = collected_pos_;
  }
  want_ = in_metadata ? Want::meta_value : Want::skip;
}

}  // namespace tensorgate::detail
