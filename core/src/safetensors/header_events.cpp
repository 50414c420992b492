// HeaderHandler: values and containers. Each event is routed by what its position wants (a
// dimension, an offset, a metadata value, a dtype, or nothing: skipped); the checks of what
// arrives are in st4_entry_checks.cpp.
#include <cmath>
#include <string>

#include "safetensors/header_handler.hpp"
#include "common/printable.hpp"

namespace tensorgate::detail {
namespace {

std::string_view sv(boost::json::string_view s) { return {s.data(), s.size()}; }

}  // namespace

bool HeaderHandler::on_object_begin(error_code& ec) {
  const Want w = current_want();
  switch (w) {
    case Want::root: push(Ctx::root); return true;
    case Want::metadata: table_.set_has_metadata(); push(Ctx::metadata); return tick(ec);
    case Want::entry: in_entry_ = true; push(Ctx::entry); return tick(ec);
    case Want::dim: on_dim(Kind::object, {}, 0); break;
    case Want::offset: on_offset(Kind::object, {}, 0); break;
    case Want::skip: break;
    default: wrong_type(w, Kind::object); break;
  }
  push(Ctx::skip_object);
  return tick(ec);
}

bool HeaderHandler::on_array_begin(error_code& ec) {
  const Want w = current_want();
  switch (w) {
    case Want::shape: dims_.clear(); push(Ctx::shape); return tick(ec);
    case Want::offsets: entry_.offsets_count = 0; push(Ctx::offsets); return tick(ec);
    case Want::dim: on_dim(Kind::array, {}, 0); break;
    case Want::offset: on_offset(Kind::array, {}, 0); break;
    case Want::skip: break;
    default: wrong_type(w, Kind::array); break;
  }
  push(Ctx::skip_array);
  return tick(ec);
}

bool HeaderHandler::on_object_end(std::size_t n, error_code&) {
  const Ctx ctx = frames_.back().ctx;
  if (const auto& keys = frames_.back().keys) key_set_bytes_ -= keys->bucket_count() * kKeySetSlotBytes;
  frames_.pop_back();
  if (ctx == Ctx::entry) end_entry();
  if (ctx == Ctx::metadata && n == 0)
    add(Rule::stw_empty_metadata, "\"__metadata__\" is an empty map");
  return true;
}

bool HeaderHandler::on_array_end(std::size_t, error_code& ec) {
  const Ctx ctx = frames_.back().ctx;
  frames_.pop_back();
  if (ctx == Ctx::shape) end_shape();
  if (ctx == Ctx::offsets) end_offsets();
  return covered(ec);
}

bool HeaderHandler::on_string_part(string_view s, std::size_t, error_code&) {
  const Want w = current_want();
  if (w == Want::meta_value || w == Want::dtype) collect(s, false);
  return true;
}

bool HeaderHandler::on_string(string_view s, std::size_t, error_code& ec) {
  note_pos(s);
  const Want w = current_want();
  if (w == Want::meta_value) {
    table_.add_metadata(meta_key_, collect(s, true));
    return covered(ec);
  }
  if (w == Want::dtype) {
    on_dtype(table_.str(collect(s, true)));
    return covered(ec);
  }
  value(Kind::string);
  return tick(ec);
}

// Integers are where a shape grows (dims_): charged like the table.
bool HeaderHandler::on_int64(std::int64_t v, string_view text, error_code& ec) {
  note_pos(text);
  value(Kind::integer, text, static_cast<std::uint64_t>(v));
  return covered(ec);
}

bool HeaderHandler::on_uint64(std::uint64_t v, string_view text, error_code& ec) {
  note_pos(text);
  value(Kind::integer, text, v);
  return covered(ec);
}

bool HeaderHandler::on_double(double v, string_view text, error_code& ec) {
  note_pos(text);
  if (std::isinf(v) && current_want() == Want::skip) {
    reference_rejects_ = true;
    add(Rule::stw_reference_differs, "the reference reader rejects the out-of-range number " +
                                         quoted(sv(text)));
  }
  value(Kind::number, text);
  return tick(ec);
}

bool HeaderHandler::on_bool(bool, error_code& ec) {
  value(Kind::boolean);
  return tick(ec);
}

bool HeaderHandler::on_null(error_code& ec) {
  value(Kind::null);
  return tick(ec);
}

void HeaderHandler::value(Kind kind, string_view text, std::uint64_t integer) {
  const Want w = current_want();
  switch (w) {
    case Want::dim: on_dim(kind, text, integer); return;
    case Want::offset: on_offset(kind, text, integer); return;
    case Want::skip: return;
    default: wrong_type(w, kind); return;
  }
}

}  // namespace tensorgate::detail
