#include "kind/classify.hpp"

#include <cstring>

#include "ctranslate2/content_probe.hpp"
#include "flax/content_probe.hpp"
#include "onnx/content_probe.hpp"
#include "pickle/compressed/front.hpp"
#include "pickle/opcodes.hpp"
#include "pickle/scanner.hpp"
#include "savedmodel/content_probe.hpp"
#include "tar/tar_header.hpp"

namespace tensorgate::detail::kind {
namespace {

bool starts(std::string_view s, std::string_view magic) { return s.substr(0, magic.size()) == magic; }
// `s` could still begin with `magic` once more bytes come.
bool could_start(std::string_view s, std::string_view magic) {
  return magic.substr(0, std::min(s.size(), magic.size())) == s.substr(0, std::min(s.size(), magic.size()));
}

std::uint64_t le64(std::string_view s) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[static_cast<std::size_t>(i)]);
  return v;
}

constexpr std::string_view kHdf5Signature{"\x89HDF\r\n\x1a\n", 8};
constexpr std::string_view kGgmlMagics[] = {"lmgg", "fmgg", "tjgg"};

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The pickle scanner over the first bytes: PROTO 2-5 and one more opcode, or any other start
// with four opcodes or a STOP before a fault (text fails within a byte or two).
enum class Verdict { yes, no, undecided };
Verdict pickle_probe(std::string_view prefix, bool complete) {
  FindingList scratch(4);
  pickle::Scanner probe(PickleLimits{}, pickle::ScanSite{&scratch, 0, true, {}}, nullptr);
  probe.feed(reinterpret_cast<const unsigned char*>(prefix.data()), prefix.size());
  const PickleSummary s = probe.summary();
  const unsigned char b0 = static_cast<unsigned char>(prefix[0]);
  const bool proto = b0 == 0x80 && prefix.size() >= 2 && static_cast<unsigned char>(prefix[1]) <= 5;
  const std::uint64_t needed = proto ? 2 : 4;
  // A stream that breaks needs one opcode more; while the prefix may still grow, a stream not
  // broken yet may break in the bytes to come, so it needs that one more too: the verdict must
  // not depend on where the input's chunks end.
  const bool may_break = probe.stopped() || !complete;
  if (s.pickles > 0 || s.opcodes >= needed + (may_break ? 1 : 0)) return Verdict::yes;
  // PROTO and an opcode whose announced length runs past the input (FRAME, BINBYTES8, ...): a
  // truncated pickle, whose rules say so (PK.truncated), not a broken safetensors length.
  if (proto && prefix.size() >= 3) {
    const auto op = static_cast<unsigned char>(prefix[2]);
    if (op == pickle::op::FRAME || pickle::op_info(op).arg == pickle::Arg::counted) return Verdict::yes;
  }
  if (probe.stopped() || complete) return Verdict::no;
  return Verdict::undecided;
}


// OpenVINO IR's model.xml: after a byte order mark, white space, the XML declaration and
// comments, the root element <net (or a DOCTYPE naming net: a hostile IR is still one, for its
// rules to refuse). A prefix that is XML so far and ends before the root waits for more.
Verdict openvino_probe(std::string_view prefix, bool complete) {
  std::string_view s = prefix;
  if (starts(s, "\xEF\xBB\xBF")) s.remove_prefix(3);
  for (;;) {
    while (!s.empty() && json_space(s.front())) s.remove_prefix(1);
    if (s.empty()) return complete ? Verdict::no : Verdict::undecided;
    if (s.front() != '<') return Verdict::no;
    if (s.size() < 10 && !complete) break;  // "<!DOCTYPE " is the longest opening looked at
    if (starts(s, "<?")) {
      const std::size_t end = s.find("?>");
      if (end == std::string_view::npos) break;
      s.remove_prefix(end + 2);
    } else if (starts(s, "<!--")) {
      const std::size_t end = s.find("-->", 4);
      if (end == std::string_view::npos) break;
      s.remove_prefix(end + 3);
    } else {
      const bool doctype = starts(s, "<!DOCTYPE");
      std::string_view rest = s.substr(doctype ? 9 : 1);
      if (doctype)
        while (!rest.empty() && json_space(rest.front())) rest.remove_prefix(1);
      if (rest.size() < 4) break;
      return starts(rest, "net") && (json_space(rest[3]) || rest[3] == '>' || rest[3] == '/' || (doctype && rest[3] == '['))
                 ? Verdict::yes
                 : Verdict::no;
    }
  }
  return complete ? Verdict::no : Verdict::undecided;
}

}  // namespace

bool starts_like_lfs_pointer(std::string_view prefix) {
  return starts(prefix, "version https://git-lfs.github.com/spec/") || starts(prefix, "version https://hawser.github.com/spec/");
}

std::optional<Classification> classify(std::string_view prefix, bool complete) {
  if (prefix.empty()) {
    if (!complete) return std::nullopt;
    return Classification{Format::empty, "nothing: the file is empty", std::nullopt};
  }
  if (starts(prefix, "GGUF")) return Classification{Format::gguf, {}, {}};
  if (starts(prefix, "PK\x03\x04") || starts(prefix, std::string_view("PK\x05\x06", 4))) return Classification{Format::zip, {}, {}};
  if (starts(prefix, "\x93NUMPY")) return Classification{Format::npy, {}, {}};
  if (starts(prefix, kHdf5Signature)) return Classification{Format::hdf5, {}, {}};
  // A TFLite flatbuffer: its root offset, then the file identifier of schema.fbs.
  if (prefix.size() >= 8 && prefix.substr(4, 4) == "TFL3") return Classification{Format::tflite, {}, {}};
  const bool tflite_pending = prefix.size() < 8 && could_start(prefix.substr(std::min<std::size_t>(4, prefix.size())), "TFL3");
  // Legacy GGML's three magics as their little-endian uint32 is on disk (ggml, ggmf, ggjt).
  for (const std::string_view m : kGgmlMagics)
    if (starts(prefix, m)) return Classification{Format::ggml, {}, {}};
  switch (openvino_probe(prefix, complete)) {
    case Verdict::yes: return Classification{Format::openvino, {}, {}};
    case Verdict::undecided: return std::nullopt;
    case Verdict::no: break;
  }
  bool ggml_pending = false;
  for (const std::string_view m : kGgmlMagics) ggml_pending = ggml_pending || could_start(prefix, m);
  const bool magic_pending = ggml_pending || tflite_pending || could_start(prefix, "GGUF") || could_start(prefix, "PK\x03\x04") ||
                             could_start(prefix, std::string_view("PK\x05\x06", 4)) || could_start(prefix, "\x93NUMPY") ||
                             could_start(prefix, kHdf5Signature) || could_start(prefix, "version https://");
  if (!complete && magic_pending) return std::nullopt;
  if (starts_like_lfs_pointer(prefix)) {
    if (!complete) return std::nullopt;
    return Classification{Format::lfs_pointer, {}, parse_lfs_pointer(prefix)};
  }
  bool small_length = false, header_brace = false;
  if (prefix.size() >= 8) {
    std::size_t i = 8;
    while (i < prefix.size() && json_space(prefix[i])) ++i;
    if (i == prefix.size() && !complete) return std::nullopt;
    header_brace = i < prefix.size() && prefix[i] == '{';
    if (header_brace && le64(prefix) <= kSafetensorsMaxHeader) return Classification{Format::safetensors, {}, {}};
    small_length = prefix[4] == 0 && prefix[5] == 0 && prefix[6] == 0 && prefix[7] == 0;  // N < 2^32
  } else if (!complete) {
    return std::nullopt;
  } else {
    // Fewer than 8 bytes: the beginning of a small little-endian length, or not.
    small_length = prefix.find('\0') != std::string_view::npos;
    for (std::size_t i = 4; i < prefix.size(); ++i) small_length = small_length && prefix[i] == 0;
  }
  // A header that begins where safetensors' does, after a length past the bound: ST1 says so,
  // from the first bytes ('{' is no pickle opcode and no protobuf tag a model starts with), so an oversized
  // upload header is refused before the 2 KiB that HDF5's user blocks wait for.
  if (header_brace) return Classification{Format::safetensors, {}, {}};
  // HDF5 after a user block (h5py's userblock_size): its signature at 512, 1024 or 2048, the
  // places within kPrefix where HDF5 looks. Decided before the guesses below (a user block that
  // runs as a pickle is FK.polyglot's), so a stream waits for those bytes; after the safetensors
  // header's start, which the first bytes decide.
  if (prefix.size() < 2048 + kHdf5Signature.size() && !complete) return std::nullopt;
  for (const std::size_t at : {512, 1024, 2048})
    if (prefix.substr(std::min(at, prefix.size()), kHdf5Signature.size()) == kHdf5Signature) return Classification{Format::hdf5, {}, {}};
  // A Flax checkpoint: a msgpack map whose first key is a string. Before the pickle probe,
  // which may run a few opcodes through one (0x81-0x8f are pickle opcodes too); a real pickle of
  // protocol 2 or above starts with PROTO (0x80), and of protocol 0 or 1 with an ASCII opcode.
  switch (flax::probe_checkpoint(prefix, complete)) {
    case flax::ProbeVerdict::yes: return Classification{Format::flax, {}, {}};
    case flax::ProbeVerdict::undecided: return std::nullopt;
    case flax::ProbeVerdict::no: break;
  }
  switch (pickle_probe(prefix, complete)) {
    case Verdict::yes: return Classification{Format::pickle, {}, {}};
    case Verdict::undecided: return std::nullopt;
    case Verdict::no: break;
  }
  // Before ONNX: a SavedModel also begins with a varint field 1 (its schema version, 1).
  switch (savedmodel::probe_savedmodel(prefix, complete)) {
    case savedmodel::ProbeVerdict::yes: return Classification{Format::savedmodel, {}, {}};
    case savedmodel::ProbeVerdict::undecided: return std::nullopt;
    case savedmodel::ProbeVerdict::no: break;
  }
  switch (onnx::probe_model(prefix, complete)) {
    case onnx::ProbeVerdict::yes: return Classification{Format::onnx, {}, {}};
    case onnx::ProbeVerdict::undecided: return std::nullopt;
    case onnx::ProbeVerdict::no: break;
  }
  // PROTO 2 or above and an opcode: a pickle that breaks early (the PK rules say how: an
  // unknown opcode, an underflow, a protocol above 5). No opcode is 0, so a safetensors length
  // below 2^16 (0x80 0x0N 0x00 ...) is not one.
  if (prefix.size() >= 3 && static_cast<unsigned char>(prefix[0]) == pickle::op::PROTO &&
      static_cast<unsigned char>(prefix[1]) >= 2 && prefix[2] != 0)
    return Classification{Format::pickle, {}, {}};
  // A tar to Python's tarfile (torch.load tries it first): its first block decides. A tar that
  // also runs as a pickle, or begins as safetensors, is taken for those above, and FK.polyglot
  // says it is a tar too (fk_polyglot.cpp).
  if (prefix.size() < tar::kBlock && !complete) return std::nullopt;
  if (tar::starts_as_tar(prefix)) return Classification{Format::tar, {}, {}};
  // A compressed joblib file: a magic joblib.load tells a compressor by, and a stream that
  // inflates to a pickle's PROTO. zlib's one byte and lzma-alone's two are weak signatures, so
  // the inflated PROTO decides, never the magic alone: a gzip of anything else stays what it
  // was. Before the small-length test: a gzip header with no time stamp has four zero bytes.
  if (const auto z = pickle::compression_of(prefix, true); z && *z != pickle::Compression::none) {
    switch (pickle::inflated_start(prefix, *z, PickleLimits{}.max_decoder_memory)) {
      case pickle::InflatedStart::proto: return Classification{Format::pickle, {}, {}};
      case pickle::InflatedStart::pending:
        if (!complete) return std::nullopt;
        if (!small_length) return Classification{Format::pickle, describe_unknown(prefix), std::nullopt, true};
        break;
      case pickle::InflatedStart::other: break;
    }
  }
  // A CTranslate2 model.bin: no magic, a version 1-6 and a spec name (or, in version 1, a first
  // variable record) no format above starts with; last, so that nothing above changes.
  switch (ctranslate2::probe_model_bin(prefix, complete)) {
    case ctranslate2::ProbeVerdict::yes: return Classification{Format::ctranslate2, {}, {}};
    case ctranslate2::ProbeVerdict::undecided: return std::nullopt;
    case ctranslate2::ProbeVerdict::no: break;
  }
  if (small_length) return Classification{Format::safetensors, {}, {}};
  if (!complete) return std::nullopt;
  return Classification{Format::unknown, describe_unknown(prefix), std::nullopt};
}

}  // namespace tensorgate::detail::kind
