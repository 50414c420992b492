// The root group's object header messages: attributes (0x0C), continuations (0x10) and the
// attribute info message (0x15) that says where dense storage is; and the attributes' waits for
// the global heap collections that hold their variable-length strings.
#include "common/printable.hpp"
#include "hdf5/kr_keras.hpp"
#include "hdf5/validator.hpp"

namespace tensorgate::detail::hdf5 {
namespace {

constexpr std::uint32_t kAttribute = 0x0c, kContinuation = 0x10, kAttributeInfo = 0x15;
constexpr std::uint32_t kSharedMessage = 0x02;  // a message's flags: its data is a reference to a shared one

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

void Hdf5Validator::read_messages(std::string_view chunk, std::uint64_t offset) {
  MessageCursor cursor(chunk, header_.version, header_.flags);
  Message m;
  Fault f;
  while (!stopped_ && cursor.next(m, f)) on_message(m, offset + m.at);
  if (f) fault(f, "the root group's object header's chunk at byte " + num(offset), offset);
}

void Hdf5Validator::on_message(const Message& m, std::uint64_t offset) {
  if (++messages_ > limits_.hdf5.max_header_messages) {
    return abort_with("hdf5-header-messages", "the root group's object header holds more than Limits::hdf5.max_header_messages (" +
                                                  num(limits_.hdf5.max_header_messages) + ") messages; the file is not checked");
  }
  if (header_.version == 1 && messages_ > header_.messages) {
    return fail("the root group's object header holds more messages than the " + num(header_.messages) + " its prefix declares",
                offset);
  }
  if (m.type == kAttribute) {
    if (m.flags & kSharedMessage) {
      return abort_with("hdf5-unsupported", "an attribute of the root group at byte " + num(offset) +
                                                " is a shared message stored elsewhere, which this reader does not follow; "
                                                "the file is not checked");
    }
    return on_attribute(m, offset);
  }
  if (m.type == kContinuation) return on_continuation_message(m, offset);
  if (m.type == kAttributeInfo) {
    std::uint64_t heap = kUndefined;
    if (Fault f = parse_attribute_info(m.data, summary_.offset_size, heap))
      return fault(f, "the attribute info message at byte " + num(offset), offset);
    if (heap != kUndefined) {
      return abort_with("hdf5-dense-attributes",
                        "the root group keeps its attributes in dense storage (a fractal heap at address " + num(heap) +
                            "), which this reader does not read: its attributes, a Keras model's config among them, "
                            "are not checked");
    }
  }
}

void Hdf5Validator::on_continuation_message(const Message& m, std::uint64_t offset) {
  Fields f(m.data);
  const std::uint64_t address = f.addr(summary_.offset_size), length = f.u(summary_.length_size);
  if (f.overrun()) return fail("the continuation message at byte " + num(offset) + " is shorter than its fields", offset);
  const std::uint64_t least = header_.version == 2 ? 8 : 1;  // OCHK and a checksum
  if (length < least) return fail("the continuation message at byte " + num(offset) + " gives a block of " + num(length) + " bytes", offset);
  const auto at = absolute(address, "a continuation block of the root group's object header", offset);
  if (!at) return;
  for (const auto& [start, size] : chunks_) {
    if (*at < start + size && start < *at + length) {
      return fail("the continuation block at byte " + num(*at) + " (" + num(length) +
                      " bytes) overlaps the root group's object header's chunk at byte " + num(start) +
                      ": the header would loop",
                  offset);
    }
  }
  if (++continuations_ > limits_.hdf5.max_continuations) {
    return abort_with("hdf5-continuations", "the root group's object header has more than Limits::hdf5.max_continuations (" +
                                                num(limits_.hdf5.max_continuations) + ") continuation blocks; the file is not checked");
  }
  chunks_.emplace_back(*at, length);
  request(Region{*at, length, RegionKind::continuation, 0, {}}, "a continuation block of the root group's object header");
}

void Hdf5Validator::on_attribute(const Message& m, std::uint64_t offset) {
  if (++attributes_seen_ > limits_.hdf5.max_attributes) {
    return abort_with("hdf5-attributes", "the root group has more than Limits::hdf5.max_attributes (" +
                                             num(limits_.hdf5.max_attributes) + ") attributes; the file is not checked");
  }
  Attribute a;
  if (Fault f = parse_attribute(m.data, summary_.offset_size, summary_.length_size, a))
    return fault(f, "the attribute message at byte " + num(offset), offset);
  KeptAttribute k = keep(a, offset + a.data_at, summary_.offset_size);
  k.listed = attributes_listed_ < limits_.hdf5.max_listed_attributes;
  if (k.listed) ++attributes_listed_;
  else ++summary_.attributes_not_listed;
  if (!k.listed && !k.whole) return;
  if (k.waiting && k.whole && k.waiting->length > limits_.hdf5.max_attribute_bytes) {
    return abort_with("hdf5-attribute-bytes", "attribute " + quoted(k.name, 80) + " is a string of " + num(k.waiting->length) +
                                                  " bytes, more than Limits::hdf5.max_attribute_bytes (" +
                                                  num(limits_.hdf5.max_attribute_bytes) + "); the file is not checked");
  }
  if (!hold(k.value.size() + k.name.size())) return;
  attributes_.push_back(std::move(k));
  if (attributes_.back().waiting) wait_for_heap(attributes_.size() - 1);
}

// A vlen string's heap object: in a collection already read, one still coming, or a new region.
void Hdf5Validator::wait_for_heap(std::size_t index) {
  const auto at = absolute(attributes_[index].waiting->collection, "a global heap collection", attributes_[index].offset);
  if (!at) return;
  for (const auto& [address, bytes] : collections_) {
    if (address == *at) return resolve_waiting(address, bytes);
  }
  for (const Region& r : regions_.pending())
    if (r.kind == RegionKind::collection && r.address == *at) return;
  request(Region{*at, collection_head(summary_.length_size), RegionKind::collection, 0, {}}, "a global heap collection");
}

void Hdf5Validator::resolve_waiting(std::uint64_t address, std::string_view collection) {
  for (KeptAttribute& k : attributes_) {
    if (stopped_) return;
    if (!k.waiting || base_ + k.waiting->collection != address) continue;
    std::string_view object;
    Fault f = collection_object(collection, summary_.length_size, k.waiting->index, object);
    if (!f) f = resolve(k, object, address + static_cast<std::uint64_t>(object.data() - collection.data()));
    if (f) return fault(f, "attribute " + quoted(k.name, 80) + "'s string in the global heap collection at byte " + num(address), address);
    if (!hold(k.value.size())) return;
  }
}

void Hdf5Validator::all_read() {
  judged_ = true;
  collections_.clear();
  judge_keras(attributes_, limits_, findings_, summary_);
}

}  // namespace tensorgate::detail::hdf5
