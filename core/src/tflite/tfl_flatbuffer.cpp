// TFL.flatbuffer: flatbuffers' verifier (include/flatbuffers/verifier.h) as reads in file order.
// The checks are the verifier's: a table's soffset 4-aligned, its vtable 2-aligned with an even
// size, inside the buffer; each field present in the vtable aligned to its size and inside the
// buffer; an offset non-zero, below 2^31 and pointing inside the buffer; a vector's length
// 4-aligned, below 2^31 / element size, its elements inside the buffer; a string ending in a NUL;
// tables at most max_depth deep and max_tables in all. "Inside the buffer" is learnt when the
// input ends (a read that never completes), or at once past the 2 GiB a flatbuffer can hold.
#include <algorithm>

#include "tflite/validator.hpp"

namespace tensorgate::detail::tflite {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

const char* thing(const Pending& p) {
  if (p.type == FieldType::string) return "a string";
  if (p.type == FieldType::table_vector) return "a vector of tables";
  return "a vector";
}

}  // namespace

// Completes every read whose bytes have all passed, the lowest end first; then, when none is left,
// judges the model.
void TfliteValidator::settle() {
  while (!stopped_ && !queue_.empty() && queue_.top().hi <= kept_.position()) {
    const Pending p = queue_.top();
    queue_.pop();
    los_.remove(p.lo);
    process(p);
  }
  if (!stopped_ && queue_.empty() && !judged_) {
    judged_ = true;
    judge();
  }
}

bool TfliteValidator::ask(Pending p) {
  if (p.hi > kFlatbufferEnd) {
    fail(std::string(p.step == Step::table_start || p.step == Step::vtable_size || p.step == Step::vtable ||
                             p.step == Step::table_fields
                         ? kind_name(p.kind)
                         : thing(p)) +
             " at byte " + num(p.at) + " needs the bytes up to " + num(p.hi) +
             ", past the 2 GiB a flatbuffer can hold (its verifier refuses any read there)",
         p.at);
    return false;
  }
  if (!hold(sizeof(Pending) + 16)) return false;
  p.seq = seq_++;
  p.lo = std::min(p.lo, p.hi);
  los_.add(p.lo);
  queue_.push(p);
  return true;
}

// A table's next step: at once when its bytes have passed (a vtable behind its table, as most
// are), else asked for. The position is where a read completed, whatever the chunks, so either
// way the order is the input's own.
void TfliteValidator::proceed(const Pending& p) {
  if (p.hi > kFlatbufferEnd || p.hi > kept_.position()) {
    ask(p);
    return;
  }
  process(p);
}

void TfliteValidator::process(const Pending& p) {
  switch (p.step) {
    case Step::root: return on_root(p);
    case Step::table_start: return on_table_start(p);
    case Step::vtable_size: return on_vtable_size(p);
    case Step::vtable: return on_vtable(p);
    case Step::table_fields: return on_table_fields(p);
    case Step::vector_length: return on_vector_length(p);
    case Step::elements: return on_elements(p);
  }
}

std::optional<std::string_view> TfliteValidator::bytes(std::uint64_t at, std::uint64_t length, const char* what) {
  if (auto b = kept_.read(at, length)) return b;
  abort_with("tflite-data-overlap", std::string(what) + " at byte " + num(at) +
                                        " lies inside a tensor's data, which the reader does not keep; the file is not "
                                        "checked");
  return std::nullopt;
}

// A run that must lie inside the file though the reader does not read it (tensor data, a
// vector nothing is kept of): its end is checked when the input ends.
void TfliteValidator::require(std::uint64_t end, std::uint64_t at, std::string what) {
  if (end <= required_end_) return;
  required_end_ = end;
  required_at_ = at;
  required_what_ = std::move(what);
}

bool TfliteValidator::claim_tables(std::uint64_t n, std::uint64_t at) {
  if (n > limits_.tflite.max_tables - std::min(tables_, limits_.tflite.max_tables)) {
    fail("the flatbuffer has more than " + num(limits_.tflite.max_tables) +
             " tables to verify (Limits::tflite.max_tables, flatbuffers' max_tables): a table shared by many offsets "
             "is verified once for each",
         at);
    return false;
  }
  tables_ += n;
  return true;
}

void TfliteValidator::on_root(const Pending& p) {
  const auto head = bytes(0, 8, "the root offset");
  if (!head) return;
  if (head->substr(4, 4) != "TFL3")
    return fail("bytes 4-8 are not the file identifier \"TFL3\" that TFLite's verifier requires", 4);
  const std::uint32_t o = kept_.u32(0);
  if (o == 0 || o >= (1u << 31))
    return fail("the root offset " + num(o) + " does not point at a table (0, or past 2^31)", 0);
  if (!claim_tables(1, o)) return;
  Pending t{o, o + 4, 0, o, 0, 0, 0, 0, Step::table_start, Kind::model, Role::table, FieldType::table, 4, 1};
  (void)p;
  ask(t);
}

void TfliteValidator::on_table_start(const Pending& p) {
  if (p.at % 4 != 0) return fail(std::string(kind_name(p.kind)) + " at byte " + num(p.at) + " is not 4-aligned", p.at);
  if (p.depth > limits_.tflite.max_depth)
    return fail(std::string(kind_name(p.kind)) + " at byte " + num(p.at) + " is nested " + num(p.depth) +
                    " tables deep, past Limits::tflite.max_depth (" + num(limits_.tflite.max_depth) + ")",
                p.at);
  if (!bytes(p.at, 4, kind_name(p.kind))) return;
  const auto soffset = static_cast<std::int32_t>(kept_.u32(p.at));
  const std::int64_t vt = static_cast<std::int64_t>(p.at) - soffset;
  if (vt < 0 || vt + 2 > static_cast<std::int64_t>(kFlatbufferEnd) || vt % 2 != 0)
    return fail("the vtable of " + std::string(kind_name(p.kind)) + " at byte " + num(p.at) + " would be at byte " +
                    std::to_string(vt) + ": " + (vt % 2 != 0 ? "not 2-aligned" : "outside the buffer"),
                p.at);
  Pending next = p;
  next.step = Step::vtable_size;
  next.vtable = static_cast<std::uint64_t>(vt);
  next.lo = next.vtable;
  next.hi = next.vtable + 2;
  proceed(next);
}

void TfliteValidator::on_vtable_size(const Pending& p) {
  if (!bytes(p.vtable, 2, "a vtable")) return;
  const std::uint16_t size = kept_.u16(p.vtable);
  if (size % 2 != 0)
    return fail("the vtable at byte " + num(p.vtable) + " of " + kind_name(p.kind) + " at byte " + num(p.at) +
                    " has an odd size (" + num(size) + ")",
                p.vtable);
  Pending next = p;
  next.step = Step::vtable;
  next.lo = p.vtable;
  next.hi = p.vtable + size;
  proceed(next);
}

std::uint16_t TfliteValidator::voffset(const Pending& table, std::uint8_t id) {
  const std::uint16_t size = kept_.u16(table.vtable);
  const std::uint32_t entry = 4u + 2u * id;
  return entry < size ? kept_.u16(table.vtable + entry) : 0;
}

// The vtable is whole: the table's fields are what remains to wait for.
void TfliteValidator::on_vtable(const Pending& p) {
  const std::uint16_t size = kept_.u16(p.vtable);
  if (!bytes(p.vtable, size, "a vtable")) return;
  std::uint64_t end = p.at + 4;
  for (const Field& f : fields_of(p.kind))
    if (const std::uint16_t v = voffset(p, f.id)) end = std::max<std::uint64_t>(end, p.at + v + (f.type == FieldType::scalar || f.type == FieldType::union_type ? f.size : 4));
  Pending next = p;
  next.step = Step::table_fields;
  next.lo = p.at;
  next.hi = end;
  proceed(next);
}

void TfliteValidator::on_table_fields(const Pending& p) {
  if (!bytes(p.at, p.hi - p.at, kind_name(p.kind))) return;
  for (const Field& f : fields_of(p.kind)) {
    const std::uint16_t v = voffset(p, f.id);
    if (v == 0) continue;
    const std::uint64_t at = p.at + v;
    const std::uint32_t align = f.type == FieldType::scalar || f.type == FieldType::union_type ? f.size : 4;
    if (at % align != 0)
      return fail("field " + num(f.id) + " of " + kind_name(p.kind) + " at byte " + num(p.at) + " is at byte " + num(at) +
                      ", not " + num(align) + "-aligned",
                  at);
    if (f.type != FieldType::scalar && f.type != FieldType::union_type && !follow(p, f, at)) return;
  }
  record_table(p);
}

// An offset field: what it points at, verified in its turn.
bool TfliteValidator::follow(const Pending& table, const Field& f, std::uint64_t at) {
  const std::uint32_t o = kept_.u32(at);
  if (o == 0 || o >= (1u << 31)) {
    fail("field " + num(f.id) + " of " + kind_name(table.kind) + " at byte " + num(table.at) + " holds the offset " + num(o) +
             " (0, or past 2^31)",
         at);
    return false;
  }
  const std::uint64_t target = at + o;
  Pending next{target, target + 4, 0, target, 0, table.ctx0, table.ctx1, 0, Step::vector_length, f.kind, f.role, f.type,
               f.size, table.depth};
  if (f.type == FieldType::table || f.type == FieldType::union_value) {
    Kind member = f.kind;
    if (f.type == FieldType::union_value) {
      const std::uint16_t tv = voffset(table, static_cast<std::uint8_t>(f.id - 1));
      const auto type = tv ? static_cast<std::uint8_t>((*kept_.read(table.at + tv, 1))[0]) : std::uint8_t{0};
      if (!union_member(table.kind, f.id, type, member)) {
        // The generated verifier checks the offset and leaves a table it does not know.
        require(target + 1, at, "the table a union field points at");
        return true;
      }
    }
    if (!claim_tables(1, at)) return false;
    next.step = Step::table_start;
    next.kind = member;
    next.type = FieldType::table;
    next.depth = static_cast<std::uint8_t>(std::min<unsigned>(table.depth + 1u, 255u));
  }
  return ask(next);
}

void TfliteValidator::on_vector_length(const Pending& p) {
  if (p.at % 4 != 0) return fail(std::string(thing(p)) + " at byte " + num(p.at) + " is not 4-aligned", p.at);
  if (!bytes(p.at, 4, thing(p))) return;
  const std::uint32_t n = kept_.u32(p.at);
  const std::uint64_t elem = p.type == FieldType::string ? 1 : p.elem;
  if (n >= 0x7fffffffu / elem)
    return fail(std::string(thing(p)) + " at byte " + num(p.at) + " says it has " + num(n) +
                    " elements: its bytes would pass the 2 GiB a flatbuffer can hold",
                p.at);
  const std::uint64_t end = p.at + 4 + elem * n + (p.type == FieldType::string ? 1 : 0);
  if (end > kFlatbufferEnd)
    return fail(std::string(thing(p)) + " at byte " + num(p.at) + " of " + num(n) + " elements ends at byte " + num(end) +
                    ", past the 2 GiB a flatbuffer can hold",
                p.at);
  Pending next = p;
  next.count = n;
  if (p.role == Role::buffer_data) {
    // Tensor data: its bytes are not looked at, only that they lie inside the file.
    record_vector(p, n);
    data_end_ = std::max(data_end_, end);
    require(end, p.at, "the data of buffer " + num(p.ctx0));
    return;
  }
  if (p.type == FieldType::vector && (p.role == Role::none)) {
    require(end, p.at, "a vector");
    return;
  }
  next.step = Step::elements;
  next.lo = p.at + 4;
  next.hi = end;
  ask(next);
}

void TfliteValidator::on_elements(const Pending& p) {
  if (!bytes(p.lo, p.hi - p.lo, thing(p))) return;
  if (p.type == FieldType::string) {
    if ((*kept_.read(p.hi - 1, 1))[0] != '\0')
      return fail("the string at byte " + num(p.at) + " of " + num(p.count) + " bytes does not end in a NUL byte", p.hi - 1);
    return record_vector(p, p.count);
  }
  if (p.type != FieldType::table_vector) return record_vector(p, p.count);
  if (!claim_tables(p.count, p.at) || !size_records(p, p.count)) return;
  for (std::uint32_t i = 0; i < p.count && !stopped_; ++i) {
    const std::uint64_t at = p.at + 4 + 4ull * i;
    const std::uint32_t o = kept_.u32(at);
    if (o == 0 || o >= (1u << 31))
      return fail("element " + num(i) + " of the vector of tables at byte " + num(p.at) + " holds the offset " + num(o) +
                      " (0, or past 2^31)",
                  at);
    const auto [c0, c1] = child_context(p, i);
    const std::uint64_t target = at + o;
    ask(Pending{target, target + 4, 0, target, 0, c0, c1, 0, Step::table_start, p.kind, p.role, FieldType::table, 4,
                static_cast<std::uint8_t>(std::min<unsigned>(p.depth + 1u, 255u))});
  }
}

}  // namespace tensorgate::detail::tflite
