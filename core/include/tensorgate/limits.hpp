#pragma once
// Every bound the core enforces, in one place. Defaults are the format's own limits where it has
// them; the service may lower them (a lowered bound that a file exceeds aborts validation with
// `Report::aborted`, which is a capacity answer, not a verdict on the file).
#include <cstddef>
#include <cstdint>
#include <memory>

namespace tensorgate {

struct Policy;  // tensorgate/policy.hpp

// Bounds on the JSON files of a model directory (config.json, the index, a /v1/check-model
// body), which are read whole.
struct DirectoryLimits {
  std::uint64_t max_json_bytes = 64ull << 20;  // the largest index seen is a few MB
  std::uint32_t max_json_depth = 64;           // real configs nest 3 or 4 deep
};

// Bounds of the conversion audit (docs/audit.md).
struct AuditLimits {
  // Each side's read buffer: the audit's memory is two of these plus one row of bookkeeping per
  // tensor. Values below 64 KiB are raised to it (a block of every ggml type must fit).
  std::uint64_t chunk_bytes = 4ull << 20;
  // Row pieces gathered into one read (q/k rows are fetched as runs of whole rows): bounds the
  // bookkeeping of a batch when rows are tiny.
  std::uint32_t max_pieces = 4096;
  // Largest head_dim the RoPE check computes factors for (the factors are computed one at a
  // time; the bound only refuses absurd configs early).
  std::uint64_t max_head_dim = 1ull << 16;
};

// Bounds of the chat template lexer (family CT, core/src/chat_template/). A template streams
// through it in O(1) memory whatever its length: these bound what it keeps.
struct ChatTemplateLimits {
  // Open brackets the lexer tracks (Jinja's balancing stack, here an explicit one). Jinja's
  // recursive parser gives up near 60 levels (Python's recursion limit), so no template Jinja
  // renders comes near; deeper nesting is CT.lex and only counted from there on.
  std::uint32_t max_bracket_depth = 256;
  // Names (variables, macro parameters, attributes' owners) whose bindings CT.computed-subscript
  // follows to tell a key the template builds from one it reads (four bindings a name on
  // average); past it a name counts as built, so its keys are reported. Real templates use well
  // under 200.
  std::uint32_t max_names = 1024;
  // Templates a file's report lists by name and length (all are judged and counted): real
  // tokenizer_config.json files have one to three.
  std::uint32_t max_listed = 64;
};

// Bounds of the pickle scanner (PK; docs/pickle.md). The scanner keeps a symbolic value per
// stack slot and memo entry (16 bytes each), the short strings that can name globals or
// tensors, and small tuples; everything else streams by. Past a bound it stops with
// Report::aborted (a capacity answer, not a verdict): CPython itself would hold a Python object
// (28 bytes or more) for each of these.
struct PickleLimits {
  std::uint64_t max_stack = 1ull << 20;  // values on the stack at once (CPython has no bound)
  std::uint64_t max_memo = 1ull << 24;   // memo entries of one pickle (256 MiB of values here)
  // Strings up to this length are kept (module, attribute and tensor names; a longer module
  // name is no real module); longer ones are known by their length only.
  std::uint32_t max_kept_string = 256;
  // Bytes of kept strings and small tuples' items that are live at once per pickle (charged to
  // the shared memory budget). Strings and tuples nothing refers to any more are collected, so
  // this bounds what the stack and the memo hold, not the pickle's length: a 100 MB pickle of
  // small objects memoised as CPython writes them holds ~30 MB. Past it, strings are no longer
  // kept, and a STACK_GLOBAL that needs one aborts the scan.
  std::uint64_t max_kept_bytes = 64ull << 20;
  std::uint32_t max_tuple_kept = 16;     // tuples up to this size keep their items (call arguments, shapes)
  std::uint64_t max_globals = 4096;      // distinct globals in the summary (each still judged)
  std::uint64_t max_tensors = 1ull << 18;  // state-dict tensors in the summary
  std::uint64_t max_storages = 1ull << 18;  // storages in the summary
  // A compressed joblib file (joblib.dump(obj, f, compress=...), docs/pickle.md): what its
  // stream may inflate to. Past max_inflated_bytes, or past bomb_floor_bytes and bomb_ratio
  // times the compressed bytes (counted to the next 16 KiB boundary), it is PK.decompression
  // (an error): joblib.load inflates every array into memory, so the loader pays what the
  // stream claims. joblib's arrays of real data compress 1.1-10x; only a constant array nears
  // deflate's ceiling of ~1032x (xz and bzip2 go past it: 4 MiB of zeros is ~4,400x in xz and
  // ~15,000x in bzip2), and a constant array of 256 MiB is no model's, as with ZP.bomb.
  std::uint64_t max_inflated_bytes = 1ull << 36;  // 64 GiB: more than a loader holds in memory
  std::uint64_t bomb_ratio = 1000;
  std::uint64_t bomb_floor_bytes = 256ull << 20;
  // What an xz or lzma stream's decoder may allocate (liblzma's memlimit: the dictionary the
  // stream names). xz -9's 64 MiB dictionary needs ~65 MiB, joblib's default level 3 ~5 MiB;
  // past it the scan is aborted (a capacity answer, not a verdict).
  std::uint64_t max_decoder_memory = 128ull << 20;
};

// Bounds of the zip walker (ZP). It keeps one record per entry (name, sizes, offset) to check
// the central directory against the local headers, and inflates deflated entries through a
// fixed 64 KiB window.
struct ZipLimits {
  std::uint64_t max_entries = 1ull << 20;  // local headers kept; real PyTorch archives have thousands
  // Largest uncompressed entry (recorded or decompressed): past it, ZP.entry-too-large (an
  // error). The largest tensor storages of real checkpoints are a few GB.
  std::uint64_t max_entry_bytes = 1ull << 36;
  // Total decompressed bytes of deflated entries the walker inflates per archive: bounds the
  // CPU a zip bomb costs (deflate expands at most ~1032x). Past it, Report::aborted.
  std::uint64_t max_inflated_bytes = 1ull << 34;
  // Bytes of entry names kept (charged to the shared memory budget).
  std::uint64_t max_name_bytes_total = 64ull << 20;
  // A zip bomb (ZP.bomb, an error): a deflated entry whose compressed bytes up to a 16 KiB
  // boundary inflate past bomb_floor_bytes and past bomb_ratio times that boundary, or whose
  // headers record as much.
  // Real archives store tensors (torch.save) or deflate weights ~1.1-3x; only constant data
  // nears deflate's ceiling of ~1032x, and a 256 MiB constant array is not a model's.
  std::uint64_t bomb_ratio = 1000;
  std::uint64_t bomb_floor_bytes = 256ull << 20;
};

// Bounds of the TorchScript reader (TS, core/src/torchscript/): a torch.jit.save archive's code
// files stream through a lexer that keeps one dotted name and a stack of open brackets, and the
// zip walker keeps the TorchScript globals its pickles import until the archive ends.
struct TorchScriptLimits {
  // Open brackets the lexer tracks: CPython's tokenizer refuses more than 200 nested
  // parentheses (MAXLEVEL), and TorchScript's printer nests a few levels; deeper is TS.code-lex.
  std::uint32_t max_bracket_depth = 200;
  // Bytes of one dotted name kept (torch.ops.<library>.<op>, an imported module), and of a
  // namespace or operator name in a mobile archive's bytecode.pkl: real ones are under 200
  // bytes. A longer name is judged by what is kept, which is no namespace of TorchScript's.
  std::uint32_t max_name_bytes = 1024;
  // TorchScript globals (__torch__.*, torch.jit._pickle.*) of an archive's pickles kept until
  // its end decides whether it is TorchScript (data.pkl streams before code/): a distinct
  // global once per pickle, ~100 bytes each. Real archives have a few hundred classes; past the
  // bound the rest are judged as any pickle's globals are.
  std::uint64_t max_deferred_globals = 1ull << 14;
  // Scripted classes and code files a report lists (all are checked and counted).
  std::uint64_t max_listed = 4096;
};

struct TarLimits {
  // Bytes of one GNU long-name or pax extended header's data, which tarfile reads whole before
  // the header it describes: real ones are a path or a few records, well under 4 KiB.
  std::uint64_t max_extended_header_bytes = 1ull << 20;
};

// Bounds of the ONNX reader (OX). It streams the model: raw tensor data is counted, never held;
// what it keeps is one field at a time (a name, an op type) and the summary's lists.
struct OnnxLimits {
  // Messages nested below the model (a graph in a node's attribute is three levels down: node,
  // attribute, graph). Real models nest If/Loop bodies a few levels; onnx's own parser allows
  // 100 levels of protobuf recursion.
  std::uint32_t max_depth = 100;
  // One field kept whole (a tensor or node name, an op type, an external_data value).
  std::uint64_t max_field_bytes = 1ull << 20;
  // The summary's lists: initializers, op types, inputs and outputs, opsets, external files.
  // Past them items are counted, not listed.
  std::uint64_t max_listed_tensors = 1ull << 20;
  std::uint64_t max_listed_ops = 4096;
  std::uint64_t max_listed_values = 4096;
};

// Bounds of the TensorFlow SavedModel reader (TF): saved_model.pb, keras_metadata.pb and the
// variables/ index of a SavedModel directory. Like ONNX it streams: tensor constants are skipped,
// what it keeps is one field at a time and the summary's lists.
// Bounds of the Keras config walk (KR): a .keras archive's config.json, streamed through a push
// JSON parser that keeps only the object being judged on each level.
struct KerasLimits {
  // Objects and arrays nested in config.json: a Functional model's layer config sits ~6 deep, a
  // wrapper's inner layer a few more.
  std::uint32_t max_depth = 64;
  // config.json's bytes walked: a large model's config is a few MB.
  std::uint64_t max_config_bytes = 256ull << 20;
  // Layer classes listed in the summary, with their counts; past it, counted only.
  std::uint64_t max_listed_classes = 1024;
};

// Bounds of the HDF5 reader (KR): a legacy Keras .h5 file's superblock, its root group's object
// header and the attributes in it, read once and in order. It keeps only the regions it still has
// to read (object header chunks, global heap collections) and lets the face skip the rest.
struct Hdf5Limits {
  // Bytes of metadata read in all, each region counted when it is asked for (before any of it is
  // held): the superblock, the root object header's chunks, the global heap collections that hold
  // its variable-length strings. A Keras model's config is a few MB.
  std::uint64_t max_metadata_bytes = 256ull << 20;
  // One attribute's value (its data, or the heap object of a variable-length string).
  std::uint64_t max_attribute_bytes = 256ull << 20;
  // Attributes of the root group read (Keras writes four); past it the verdict is aborted.
  std::uint32_t max_attributes = 4096;
  // Continuation blocks of the root object header (each one is a region read later in the file).
  std::uint32_t max_continuations = 1024;
  // Messages of the root object header, all chunks together (version 1 counts them in 16 bits).
  std::uint32_t max_header_messages = 65536;
  // The largest user block searched for the signature (HDF5 looks at 0, 512, 1024, 2048, ...).
  std::uint64_t max_user_block = 1ull << 20;
  // Attributes listed in the summary; past it, counted only.
  std::uint32_t max_listed_attributes = 256;
};

// Bounds of the legacy GGML reader (GL): llama.cpp's files before GGUF and whisper.cpp's models.
// Each count and length is checked against these and against the bytes that remain before
// anything is kept.
struct GgmlLimits {
  // Vocabulary entries (llama's n_vocab, whisper's vocabulary count); real ones are below 300,000.
  std::uint64_t max_vocab = 1u << 22;
  // Bytes of one vocabulary token.
  std::uint32_t max_token_bytes = 1u << 16;
  // Tensor records; a 70B llama has 723.
  std::uint64_t max_tensors = 1u << 16;
  // Bytes of one tensor name (llama.cpp's loader kept them as std::string; GGUF caps keys at 64 KiB).
  std::uint32_t max_name_bytes = 1024;
  // whisper.cpp's mel filter bank: n_mel x n_fft floats (80 x 201 or 128 x 201 in real models).
  std::uint64_t max_mel_floats = 1u << 20;
  // Tensors listed in the summary; past it, counted only.
  std::uint32_t max_listed_tensors = 100'000;
};

// Bounds of the OpenVINO IR reader (OV): model.xml through expat, its Const layers against model.bin.
struct OpenVinoLimits {
  // Bytes of model.xml (a 10,000-layer model's is ~10 MB).
  std::uint64_t max_xml_bytes = 256ull << 20;
  // Element nesting (net, layers, layer, data/input/output, port, dim: 6; bodies of Loop and
  // TensorIterator layers nest a net inside a layer).
  std::uint32_t max_depth = 64;
  // Layers in all, bodies included.
  std::uint64_t max_layers = 1u << 20;
  // Attributes of one element, and bytes of one attribute value.
  std::uint32_t max_attributes = 256;
  std::uint64_t max_attribute_bytes = 1u << 20;
  // Layers listed in the summary; past it, counted only.
  std::uint32_t max_listed_layers = 100'000;
};

// Bounds of the CTranslate2 reader (CTR): model.bin, binary versions 1-6.
struct CTranslate2Limits {
  // Variables and aliases (a large Whisper model has ~1,300 variables).
  std::uint64_t max_variables = 1u << 20;
  std::uint64_t max_aliases = 1u << 20;
  // Bytes of a spec name, a variable name or an alias.
  std::uint32_t max_name_bytes = 4096;
  // Variables listed in the summary; past it, counted only.
  std::uint32_t max_listed_variables = 100'000;
};

// Bounds of the Flax msgpack reader (FX).
struct FlaxLimits {
  // Maps and arrays open at once (the reader's explicit stack); a model's state nests ~10 deep.
  std::uint32_t max_depth = 64;
  // Entries of one map or array, and bytes of one key.
  std::uint64_t max_container_entries = 1u << 24;
  std::uint32_t max_key_bytes = 4096;
  // Bytes of an extension's header part held (shape and dtype; the buffer is skipped).
  std::uint32_t max_ext_header_bytes = 1u << 16;
  // Arrays listed in the summary; past it, counted only.
  std::uint32_t max_listed_arrays = 100'000;
};

// Bounds of the TFLite reader (TFL), as flatbuffers' verifier has them (max_depth 64,
// max_tables 1,000,000).
struct TfliteLimits {
  // The flatbuffer's bytes held to verify it (buffers at offsets past it, in files over 2 GB,
  // are skipped); a flatbuffer cannot pass 2 GiB.
  std::uint64_t max_flatbuffer_bytes = 2ull << 30;
  std::uint32_t max_depth = 64;
  std::uint64_t max_tables = 1'000'000;
  // Tensors listed in the summary; past it, counted only.
  std::uint32_t max_listed_tensors = 100'000;
};

struct SavedModelLimits {
  // Messages nested below the top one. A node sits four levels down (meta graph, graph,
  // function library, function); attribute values nest through functions' attribute lists.
  std::uint32_t max_depth = 100;
  // One field kept whole: a node or tensor name, an op, an attribute string the checks read, a
  // Keras object's metadata (JSON with the whole model's config: a few MB for a large model).
  std::uint64_t max_field_bytes = 64ull << 20;
  // The summary's lists: op types, meta graphs, signatures and their tensors, the nodes named
  // for each dangerous op, Keras layer classes. Past them items are counted, not listed.
  std::uint64_t max_listed_ops = 4096;
  std::uint64_t max_listed_values = 4096;
  // A SavedModel directory's variables/variables.index, read whole by the face (a table of one
  // entry per variable: a few MB for the largest models).
  std::uint64_t max_index_bytes = 64ull << 20;
};

// Bounds of `tensorgate diff` (docs/diff.md).
struct DiffLimits {
  // Each side's read buffer for --values (tensor pairs and content hashes): the diff's memory is
  // two of these plus one record per tensor. Values below 64 KiB are raised to it (a block of
  // every ggml type must fit), as for the audit.
  std::uint64_t chunk_bytes = 4ull << 20;
  // Row pieces gathered into one read when q/k rows are permuted (a safetensors/GGUF pair).
  std::uint32_t max_pieces = 4096;
  // Renames by name pattern look at names of at most this many bytes and dot-separated
  // components (real names are under 200 bytes and 10 components); longer names are only
  // matched exactly. Bounds the keys made per name (one per component).
  std::uint64_t max_pattern_name_bytes = 1024;
  std::uint32_t max_pattern_components = 16;
  // Renames by name pattern are looked for only when at most this many tensors of each side
  // are unmatched (a real change renames dozens; the keys cost ~300 bytes per tensor). Past
  // it the report says the search was skipped.
  std::uint64_t max_pattern_tensors = 65536;
  // --format markdown: the whole summary stays under this many bytes (GitHub refuses comments
  // past 65,536 characters; the rest leaves a CI job room for its own words). Rows past it are
  // counted, not written: the JSON report has them all.
  std::uint64_t markdown_max_bytes = 60'000;
  // --format markdown and text: a name or value is shown with at most this many bytes.
  std::uint64_t shown_name_bytes = 200;
};

// What a report may echo of a file (docs/report.schema.json, "truncated"): no report grows with
// one hostile value. A longer string is cut at a UTF-8 boundary, and the cut is stated with the
// full value's length and SHA-256, so a hub can still compare it.
struct ReportLimits {
  // A metadata key or value, a tensor name: real ones are under 200 bytes; the longest real
  // metadata values (embedded configs, licences) are a few KB. Matches the GGUF summary's cut.
  std::uint64_t max_string_bytes = 4096;
  // Cuts listed with their length and digest; further cuts are only counted.
  std::uint64_t max_cuts_listed = 64;
  // Entries of the tensor inventory and of the metadata map written; the rest are counted.
  // Unbounded by default (the CLI); the service sets max-report-tensors.
  std::uint64_t max_tensors = UINT64_MAX;
  std::uint64_t max_metadata = UINT64_MAX;
};

// GGUF (GG1-GG5).
struct GgufLimits {
  // The GGUF validator buffers one key or tensor name at a time and streams everything else, so
  // its memory is the keys and tensor records it keeps for the duplicate and layout checks. The
  // first three bounds are the format's own (values above them are clamped to them): a file past
  // them is invalid (an error). The others are capacity bounds: a file past them aborts
  // validation (Report::aborted). Counts from the header allocate nothing: the bounds apply to
  // the items actually read, so a count of 2^60 costs nothing before it is refuted.
  //
  // Longest GGUF string (key, value, array element, tensor name): ggml's GGUF_MAX_STRING_LENGTH,
  // 1 GiB (GG2.string-length). String values are streamed, never buffered whole.
  std::uint64_t max_string_bytes = 1ull << 30;
  // Most elements one metadata array may hold: ggml's GGUF_MAX_ARRAY_ELEMENTS, 2^30
  // (GG2.array-length). Elements are checked as they stream by, never stored.
  std::uint64_t max_array_elements = 1ull << 30;
  // Deepest array nesting (an array of arrays is depth 2): the spec sets no bound and ggml refuses
  // any nesting; 8 bounds the validator's explicit stack (GG2.array-depth).
  std::uint32_t max_array_depth = 8;
  // Most tensor infos read: each costs ~110 bytes here (record, name, hash slot), so 2^22 bounds
  // that at ~0.5 GB. Real models have up to a few thousand; a million-tensor stress file fits.
  std::uint64_t max_tensors = 1ull << 22;
  // Most key-value pairs read: real files have about 50; keys are kept for the duplicate check.
  std::uint64_t max_kv = 1ull << 20;
  // Longest key the validator buffers (the duplicate check compares keys byte for byte). The
  // spec caps keys at 65,535 bytes (a longer one gets a warning); ggml accepts up to 1 GiB.
  std::uint64_t max_key_bytes = 1ull << 20;
  // Scalar key-values the GGUF summary keeps for checks against a config (the conversion
  // audit): the first 256 pairs whose key and string value fit in 256 bytes. A llama GGUF has
  // about 40; the bound keeps a hostile file's metadata from growing the summary.
  std::uint64_t max_scalars_kept = 256;
  std::uint64_t max_scalar_bytes = 256;
  // Bytes of tokenizer.ggml.tokens' text kept to check that every merge names two tokens of the
  // vocabulary (GG6.merges), with merges that come before the tokens; a 256,000-token vocabulary
  // is ~2 MB. Past it (or with a token over 64 KiB) the merges are not judged.
  std::uint64_t max_vocab_bytes = 256ull << 20;
};

// Bounds of a policy file (docs/policy.md), which the face reads whole and the core parses: a
// team's own configuration, but a wrong file given as one (a model, a log) costs no more than
// these. A policy of a few hundred names is a few KB.
struct PolicyLimits {
  std::uint64_t max_bytes = 1ull << 20;
  // The format nests three levels (the document, a section, a list); deeper is refused.
  std::uint32_t max_depth = 8;
  // Patterns in all lists together; the judges look each name up in O(log n).
  std::uint32_t max_entries = 4096;
  // One pattern: a longer dotted name is no real module (pickle.max_kept_string keeps 256).
  std::uint32_t max_pattern_bytes = 256;
};

struct Limits {
  // safetensors: largest header the validator buffers. The format caps N at 100,000,000 (ST1);
  // values above that are clamped to it.
  std::uint64_t max_header_bytes = 100'000'000;
  // safetensors: JSON nesting the header may use, the root object being level 1. serde_json's
  // recursion budget in the reference reader is 128 and fails when it reaches 0, so the deepest
  // header the reference parses nests 127 levels: the same verdict both ways (ST2.depth).
  std::uint32_t max_json_depth = 127;
  // safetensors: header bytes that must have arrived before the header's buffer asks for huge
  // pages. A 10 MB header fills ~2,500 pages of 4 KiB, and in a VM each fault costs about as
  // much as parsing a tensor entry (a quarter of `tensorgate check` on a 100,000-tensor file).
  // The service keeps 8 MiB so that a body which only declares a large header never makes
  // 2 MiB resident before 8 MiB have arrived (its budget charges what arrived in 256 KiB steps);
  // the CLI, reading a file whose bytes exist, sets 0.
  std::uint64_t header_huge_pages_after = 8u << 20;
  // Findings kept per report (a file, a model directory, an audit); further ones are counted in
  // findings_dropped and still decide the verdict. The one cap of every producer.
  std::uint32_t max_findings = 1000;
  // safetensors: the hub clients refuse headers above this (warning STW.large-header).
  std::uint64_t large_header_warning = 25'000'000;
  // Bytes read from a character device (/dev/urandom, a terminal) while the verdict is not final.
  // Such a device has no size and may never end, and bytes that stay valid so far (a tar's zero
  // blocks, a pickle argument declaring 2^60 bytes) would be read forever; past this the check
  // stops with Report::aborted, limit "device-bytes". Files, pipes and block devices are read to
  // their end, and no model is read from a character device.
  std::uint64_t max_device_bytes = 1ull << 30;

  // --- GGUF (rules GG1-GG5) --------------------------------------------------------------------
  GgufLimits gguf{};

  // --- model directories and the conversion audit -----------------------------------------------
  DirectoryLimits directory{};
  AuditLimits audit{};

  // --- pickles and zips (PK, ZP) -----------------------------------------------------------------
  PickleLimits pickle{};
  ZipLimits zip{};
  TarLimits tar{};
  TorchScriptLimits torchscript{};
  OnnxLimits onnx{};
  SavedModelLimits savedmodel{};
  KerasLimits keras{};
  Hdf5Limits hdf5{};
  GgmlLimits ggml{};
  OpenVinoLimits openvino{};
  CTranslate2Limits ctranslate2{};
  FlaxLimits flax{};
  TfliteLimits tflite{};
  DiffLimits diff{};
  ReportLimits report{};
  // --- chat templates (tokenizer_config.json and chat_template.json are read whole within
  // `directory`; GGUF values and *.jinja files are streamed) ---------------------------------------
  ChatTemplateLimits chat_template{};

  // --- the policy file (docs/policy.md) ------------------------------------------------------
  PolicyLimits policy_file{};
  // The policy in force: what a team allows past the built-in allow-lists and denies beyond the
  // built-in deny-lists; null, the default, is none. It travels with the bounds because Limits
  // is what every validator and every nested reader (a zip's pickles, an object array) already
  // receives; it is immutable and shared by every check that uses it (docs/architecture.md).
  std::shared_ptr<const Policy> policy;
};

// A finding names its tensor with at most this many bytes of the name (a 100 MB name must not
// be copied into every finding about it).
inline constexpr std::size_t kMaxFindingTensorBytes = 4096;

// The GGUF format's own caps (ggml's gguf.cpp; docs/rules.md, GG2): Limits are clamped to them.
inline constexpr std::uint64_t kGgufMaxString = 1ull << 30;
inline constexpr std::uint64_t kGgufMaxArrayElements = 1ull << 30;
inline constexpr std::uint32_t kGgufMaxArrayDepth = 8;

// The format's own cap on the safetensors header length N (ST1).
inline constexpr std::uint64_t kSafetensorsMaxHeader = 100'000'000;

// NumPy's own bound on a .npy header (numpy.lib.format, max_header_size): FK.npy-header past it.
inline constexpr std::uint64_t kNpyMaxHeader = 10'000;

}  // namespace tensorgate
