// GS: split GGUF sets (llama.cpp's gguf-split). Files named <prefix>-NNNNN-of-MMMMM.gguf make a
// set per prefix; the set is what llama.cpp loads from its first shard: the files numbered 1 to
// the first shard's MMMMM. Names are the directory listing's; nothing is opened here.
#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>
#include <map>

#include "common/printable.hpp"
#include "common/seeded_hash.hpp"
#include "modeldir/dir_context.hpp"

namespace tensorgate {

std::optional<SplitName> parse_split_name(std::string_view name) {
  constexpr std::string_view kExt = ".gguf";
  // "-00001-of-00003.gguf" is 20 characters after a non-empty prefix.
  if (name.size() < 21 || !name.ends_with(kExt)) return std::nullopt;
  const std::string_view tail = name.substr(name.size() - 20, 15);
  const auto number = [](std::string_view d) -> std::optional<std::uint64_t> {
    std::uint64_t v = 0;
    for (const char c : d) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v;
  };
  if (tail[0] != '-' || tail.substr(6, 4) != "-of-") return std::nullopt;
  const auto no = number(tail.substr(1, 5)), count = number(tail.substr(10, 5));
  if (!no || !count) return std::nullopt;
  return SplitName{std::string(name.substr(0, name.size() - 20)), *no, *count};
}

GgufFileFacts gguf_facts_of(std::string name, const Report& report) {
  GgufFileFacts f;
  f.name = std::move(name);
  const GgufSummary* summary = report.summary.get<GgufSummary>();
  f.valid = report.valid && summary;
  if (!summary) return f;
  const GgufSummary& s = *summary;
  f.split_no = s.split_no;
  f.split_count = s.split_count;
  f.split_tensors_count = s.split_tensors_count;
  f.architecture = s.architecture;
  f.block_count = s.block_count;
  if (!s.tensors) return f;
  f.tensors.reserve(s.tensors->size());
  for (std::size_t i = 0; i < s.tensors->size(); ++i) {
    const GgufTensorView t = (*s.tensors)[i];
    const GgmlTypeInfo* type = ggml_type_info(t.type);
    f.tensors.push_back(InventoryTensor{std::string(t.name), std::string(type ? type->name : "unknown"),
                                        {t.shape.begin(), t.shape.end()}, t.bytes});
  }
  return f;
}

namespace detail {
namespace {

std::string shard_name(const std::string& prefix, std::uint64_t no, std::uint64_t count) {
  const auto five = [](std::uint64_t v) {
    std::string s = std::to_string(v);
    return s.size() < 5 ? std::string(5 - s.size(), '0') + s : s;
  };
  return prefix + "-" + five(no) + "-of-" + five(count) + ".gguf";
}

// Tensor names come from the files: keyed per process (seeded_hash.hpp).
struct NameHash {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
};

struct Member {
  const GgufFileFacts* file;
  SplitName name;
};

// The GS rules of the shards of one set that carry its count; `members` sorted by number.
class SetCheck {
 public:
  SetCheck(DirContext& ctx, std::string prefix, std::uint64_t count, std::vector<Member> members)
      : ctx_(ctx), prefix_(std::move(prefix)), count_(count), members_(std::move(members)) {}

  void run() {
    missing();
    for (const Member& m : members_) shard(m);
    tensors();
    first_shard();
    summarize();
  }

 private:
  std::string label(const Member& m) const { return quoted(m.file->name, 80); }

  void missing() {
    std::vector<std::uint64_t> absent;
    std::size_t i = 0;
    for (std::uint64_t no = 1; no <= count_; ++no) {
      while (i < members_.size() && members_[i].name.number < no) ++i;
      if (i < members_.size() && members_[i].name.number == no) continue;
      absent.push_back(no);
    }
    if (absent.empty()) return;
    complete_ = false;
    std::string list;
    for (std::size_t k = 0; k < absent.size() && k < 5; ++k)
      list += (k ? ", " : "") + quoted(shard_name(prefix_, absent[k], count_), 80);
    if (absent.size() > 5) list += " and " + std::to_string(absent.size() - 5) + " more";
    ctx_.add(Rule::gs_missing_shard, std::to_string(absent.size()) + " of the " + std::to_string(count_) +
                                         " shards of " + quoted(prefix_, 80) + " " + (absent.size() == 1 ? "is" : "are") +
                                         " missing: " + list);
  }

  void shard(const Member& m) {
    const GgufFileFacts& f = *m.file;
    if (!f.valid) {
      complete_ = false;
      ctx_.add(Rule::gs_invalid_shard, label(m) + " is not a valid GGUF file (its own report says why)");
      return;
    }
    if (!f.split_count)
      ctx_.add(Rule::gs_count, label(m) + " has no split.count");
    else if (*f.split_count != count_)
      ctx_.add(Rule::gs_count, label(m) + " has split.count " + std::to_string(*f.split_count) + ", its name says " + std::to_string(count_));
    if (!f.split_no) {
      ctx_.add(Rule::gs_split_no, label(m) + " has no split.no");
    } else if (*f.split_no != m.name.number - 1) {
      std::string also;
      for (const Member& o : members_)
        if (&o != &m && o.file->valid && o.file->split_no == f.split_no) also = " (so has " + label(o) + ")";
      ctx_.add(Rule::gs_split_no, label(m) + " has split.no " + std::to_string(*f.split_no) + ", not " +
                                      std::to_string(m.name.number - 1) + " (split.no counts from 0, names from 1)" + also);
    }
    if (!f.split_tensors_count) {
      ctx_.add(Rule::gs_tensors_count, label(m) + " has no split.tensors.count");
      complete_ = false;
    } else if (!announced_) {
      announced_ = f.split_tensors_count, announced_by_ = &m;
    } else if (*announced_ != *f.split_tensors_count) {
      ctx_.add(Rule::gs_tensors_count, label(m) + " has split.tensors.count " + std::to_string(*f.split_tensors_count) + ", " +
                                           label(*announced_by_) + " has " + std::to_string(*announced_));
      complete_ = false;
    }
  }

  // split.tensors.count against the shards' tensors; each tensor in one shard only.
  void tensors() {
    boost::unordered_flat_map<std::string_view, const GgufFileFacts*, NameHash> where;
    std::uint64_t total = 0;
    for (const Member& m : members_) {
      if (!m.file->valid) continue;
      total += m.file->tensors.size();
      for (const InventoryTensor& t : m.file->tensors) {
        const auto [it, fresh] = where.try_emplace(t.name, m.file);
        if (!fresh && it->second != m.file)
          ctx_.add(Rule::gs_duplicate_tensor, "it is in " + quoted(it->second->name, 80) + " and in " + quoted(m.file->name, 80), t.name);
      }
    }
    if (complete_ && announced_ && total != *announced_)
      ctx_.add(Rule::gs_tensors_count, "split.tensors.count is " + std::to_string(*announced_) + ", the " +
                                           std::to_string(count_) + " shards hold " + std::to_string(total) + " tensors");
  }

  void first_shard() {
    if (members_.empty() || members_.front().name.number != 1 || !members_.front().file->valid) return;
    const GgufFileFacts& f = *members_.front().file;
    if (!f.architecture) {
      ctx_.add(Rule::gs_architecture, label(members_.front()) + " has no general.architecture: llama.cpp reads the model's metadata from the first shard");
      return;
    }
    // <arch>.block_count against the blk.N tensors of the whole set (each shard holds some).
    if (!complete_ || !f.block_count) return;
    std::optional<std::uint64_t> max_block;
    for (const Member& m : members_)
      for (const InventoryTensor& t : m.file->tensors) {
        if (!t.name.starts_with("blk.")) continue;
        std::uint64_t n = 0;
        std::size_t i = 4;
        for (; i < t.name.size() && i < 24 && t.name[i] >= '0' && t.name[i] <= '9'; ++i) n = n * 10 + static_cast<std::uint64_t>(t.name[i] - '0');
        if (i > 4 && i < t.name.size() && t.name[i] == '.') max_block = std::max(max_block.value_or(0), n);
      }
    if (max_block && *max_block + 1 != *f.block_count)
      ctx_.add(Rule::ggw_block_count, quoted(*f.architecture + ".block_count") + " is " + std::to_string(*f.block_count) +
                                          ", the set's tensor names show blocks blk.0 to blk." + std::to_string(*max_block));
  }

  void summarize() {
    SplitSetSummary s;
    s.prefix = prefix_;
    s.shard_count = count_;
    std::map<std::string, std::uint64_t> by_type;
    for (const Member& m : members_) {
      s.files.push_back(m.file->name);
      if (!m.file->valid) continue;
      if (m.name.number == 1) s.architecture = m.file->architecture, s.layers = m.file->block_count;
      for (const InventoryTensor& t : m.file->tensors) {
        std::uint64_t elements = 1;
        for (const std::uint64_t d : t.shape) elements *= d;
        by_type[t.dtype] += elements;
        s.parameters += elements;
        s.bytes += t.bytes;
        ++s.tensors;
      }
    }
    s.parameters_by_type.assign(by_type.begin(), by_type.end());
    ctx_.summary.split_sets.push_back(std::move(s));
  }

  DirContext& ctx_;
  std::string prefix_;
  std::uint64_t count_;
  std::vector<Member> members_;
  bool complete_ = true;  // every shard present, valid and agreeing on split.tensors.count
  std::optional<std::uint64_t> announced_;
  const Member* announced_by_ = nullptr;
};

}  // namespace

bool names_a_shard(std::string_view file_name) {
  const auto name = parse_split_name(file_name);
  return name && name->number > 0 && name->count > 0 && name->number <= name->count;
}

void check_split_sets(DirContext& ctx) {
  std::map<std::string, std::vector<Member>> sets;  // by prefix, so sorted
  for (const GgufFileFacts& f : ctx.dir().gguf) {
    const auto name = parse_split_name(f.name);
    const bool split_metadata = (f.split_count && *f.split_count > 1) || (f.split_no && *f.split_no > 0);
    if (!name) {
      if (split_metadata)
        ctx.add(Rule::gs_name, quoted(f.name, 80) + " has split metadata (split.count " +
                                   (f.split_count ? std::to_string(*f.split_count) : "none") +
                                   ") but is not named <prefix>-NNNNN-of-MMMMM.gguf: llama.cpp finds the other shards by name");
      continue;
    }
    if (name->number == 0 || name->count == 0 || name->number > name->count) {
      ctx.add(Rule::gs_name, quoted(f.name, 80) + " is numbered " + std::to_string(name->number) + " of " +
                                 std::to_string(name->count) + ": shards count from 00001 to MMMMM");
      continue;
    }
    sets[name->prefix].push_back(Member{&f, *name});
  }
  for (auto& [prefix, members] : sets) {
    std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
      return a.name.number != b.name.number ? a.name.number < b.name.number : a.name.count < b.name.count;
    });
    // The set llama.cpp loads: its first shard's count. Files of the prefix with another count
    // belong to no set it loads.
    const std::uint64_t count = members.front().name.count;
    std::vector<Member> in;
    for (const Member& m : members) {
      if (m.name.count == count) {
        in.push_back(m);
        continue;
      }
      ctx.add(Rule::gs_extra_shard, quoted(m.file->name, 80) + " is numbered of " + std::to_string(m.name.count) + ", its set " +
                                        quoted(members.front().file->name, 80) + " of " + std::to_string(count) +
                                        " (renumbered, or a shard of another set)");
    }
    SetCheck(ctx, prefix, count, std::move(in)).run();
  }
}

}  // namespace detail
}  // namespace tensorgate
