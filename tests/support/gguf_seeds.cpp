#include "gguf_seeds.hpp"

#include "gguf_builder.hpp"

namespace tgtest {
namespace {

GgufBuilder base(std::uint32_t version = 3, bool big_endian = false) {
  GgufBuilder b(version, big_endian);
  b.kv_str("general.architecture", "llama");
  return b;
}

GgufBuilder tokenizer_model() {
  GgufBuilder b = base();
  b.kv_str("general.name", "Tiny Llama").kv_u32("general.file_type", 15).kv_u32("general.quantization_version", 2);
  b.kv_u32("llama.context_length", 4096).kv_u32("llama.embedding_length", 256).kv_u32("llama.block_count", 1);
  b.kv_str("tokenizer.ggml.model", "gpt2").kv_strings("tokenizer.ggml.tokens", {"<s>", "</s>", "a", "b", "ab"});
  b.kv_i32s("tokenizer.ggml.token_type", {3, 3, 1, 1, 1}).kv_strings("tokenizer.ggml.merges", {"a b"});
  b.kv_u32("tokenizer.ggml.bos_token_id", 0).kv_u32("tokenizer.ggml.eos_token_id", 1);
  b.kv_str("tokenizer.chat_template", "{% for m in messages %}{{ m['content'] }}{% endfor %}");
  b.tensor("token_embd.weight", 12, {256, 5}).tensor("blk.0.attn_norm.weight", 0, {256});
  b.tensor("blk.0.attn_q.weight", 14, {256, 4}).tensor("output_norm.weight", 0, {256});
  return b;
}

std::string nested_arrays(int depth) {
  GgufBuilder b = base();
  std::string v = b.enc().u32(kGgufU8).len(1).u8(7).bytes();
  for (int d = 1; d < depth; ++d) v = b.enc().u32(kGgufArray).len(1).raw(v).bytes();
  return b.kv_raw("x.nested", kGgufArray, v).build();
}

}  // namespace

std::vector<GgufSeed> gguf_seeds() {
  std::vector<GgufSeed> s;
  const auto add = [&](std::string name, std::string bytes, bool valid, std::string family) {
    s.push_back({std::move(name) + ".gguf", std::move(bytes), valid, std::move(family)});
  };
  add("valid_minimal", gguf_minimal(), true, "");
  add("valid_llama_tokenizer", tokenizer_model().build(), true, "");
  add("valid_v1", base(1).tensor("w", 0, {8, 2}).build(), true, "GGW");
  add("valid_v2", base(2).tensor("w", 1, {8}).build(), true, "");
  add("valid_big_endian", base(3, true).kv_u32s("x.list", {1, 2}).tensor("w", 0, {8}).build(), true, "GGW");
  {
    GgufBuilder b = base();
    b.tensor("a", 2, {32}).tensor("b", 12, {256}).tensor("c", 14, {256}).tensor("d", 20, {32});
    b.tensor("e", 39, {32}).tensor("f", 30, {4}).tensor("g", 40, {64}).tensor("h", 34, {256});
    add("valid_quantized_types", b.build(), true, "");
  }
  add("valid_no_tensors", base().kv_strings("tokenizer.ggml.tokens", {"a", "b"}).build(), true, "");
  add("valid_nested_array", nested_arrays(3), true, "GGW");
  add("valid_layout_warning", base().tensor("a", 0, {8}, 32).tensor("b", 0, {8}, 0).build(), true, "GGW");
  add("ct_chat_template_payload",
      base().kv_str("tokenizer.chat_template",
                    "{{ ''.__class__.__mro__[1].__subclasses__() }}{{ x|attr('\\x5f\\x5fglobals\\x5f\\x5f') }}"
                    "{{ x['_' ~ '_import_' + '_'] }}{{ popen }}")
          .build(),
      false, "CT");
  {
    // llama.cpp's gguf-split keys, as its second shard of three has them (no architecture).
    GgufBuilder b;
    b.kv_raw("split.no", kGgufU16, b.enc().u16(1).bytes()).kv_raw("split.count", kGgufU16, b.enc().u16(3).bytes());
    b.kv_i32("split.tensors.count", 3).tensor("blk.1.w", 0, {8});
    add("valid_split_shard", b.build(), true, "");
  }
  {
    // Tokens the fuzz dictionary holds: an i64 value, f32 scores, a chat template reaching for
    // Python internals, the newest type id, names that collide at NUL in llama.cpp.
    GgufBuilder b = base();
    b.kv_raw("x.i64", kGgufI64, b.enc().u64(7).bytes());
    b.kv_raw("tokenizer.ggml.scores", kGgufArray, b.enc().u32(kGgufF32).len(2).f32(0).f32(-1).bytes());
    b.kv_str("tokenizer.chat_template", "{% for m in messages %}{{ m['content'] }}{% endfor %}");
    b.tensor("output.weight", 42, {64}).tensor(std::string("t\0a", 3), 0, {8}).tensor(std::string("t\0b", 3), 0, {8});
    add("valid_dictionary_tokens", b.build(), true, "GGW");
  }
  add("gg2_value_type_unknown", base().kv_raw("x.bad", 13, "").build(), false, "GG2");
  add("gg4_type_unknown", base().tensor("w", 43, {8}).build(), false, "GG4");
  add("gg2_array_over_2p30", base().kv_raw("x.big", kGgufArray, GgufBytes().u32(kGgufU8).len((1ull << 30) + 1).bytes()).build(),
      false, "GG2");
  add("valid_alignment_64", base().alignment(64).tensor("a", 0, {3}).tensor("b", 0, {5}).build(), true, "");
  {
    std::string f = gguf_minimal();
    f[2] = 'X';
    add("gg1_magic", f, false, "GG1");
    f = gguf_minimal();
    f[4] = 9;
    add("gg1_version", f, false, "GG1");
  }
  add("gg1_tensor_count_talos_1915", base().tensor("w", 0, {8}).counts(0x0e38e38e38e38e39ull, std::nullopt).build(),
      false, "GG1");
  add("gg1_kv_count_talos_1916", base().counts(std::nullopt, 0x2000000000000001ull).build(), false, "GG1");
  add("gg2_duplicate_key", base().kv_u8("x.a", 1).kv_u8("x.a", 1).build(), false, "GG2");
  {
    GgufBuilder b = base();
    b.kv_raw("general.name", kGgufString, b.enc().u64(~0ull).raw("name").bytes());
    add("gg2_string_length_talos_1913", b.build(), false, "GG2");
    GgufBuilder c = base();
    c.kv_array("tokenizer.ggml.tokens", kGgufString, 0x1000000000000001ull, c.enc().str("a").bytes());
    add("gg2_array_count_talos_1912", c.build(), false, "GG2");
  }
  add("gg2_bool", base().kv_bool("x.b", 2).build(), false, "GG2");
  add("gg2_array_depth", nested_arrays(9), false, "GG2");
  add("gg3_alignment", base().kv_u32("general.alignment", 48).build(), false, "GG3");
  {
    GgufBuilder b = base();
    GgufBytes info = b.enc();
    info.str("w").u32(16);
    for (int i = 0; i < 16; ++i) info.u64(0x41);
    b.tensor_bytes(info.u32(0).u64(0).bytes());
    add("gg4_n_dims_talos_1914", b.build(), false, "GG4");
  }
  add("gg4_type_removed", base().tensor("w", 31, {256}).build(), false, "GG4");
  add("gg4_element_count", base().tensor("w", 0, {1ull << 62, 4}, 0).build(), false, "GG4");
  add("gg4_duplicate_name", base().tensor("w", 0, {8}).tensor("w", 0, {8}).build(), false, "GG4");
  {
    GgufBuilder b = base();
    b.tensor("a", 0, {8}).tensor("b", 0, {8}).no_padding();
    std::string f = b.build();
    f.resize(static_cast<std::size_t>(b.data_start()) - 10);  // inside the second tensor info
    add("gg4_truncated", f, false, "GG4");
  }
  add("gg5_overlap", base().tensor("a", 0, {16}).tensor("b", 0, {8}, 32).build(), false, "GG5");
  add("gg5_overflow_cve_2025_53630",
      base().tensor("a", 24, {(1ull << 63) - 1}, 0).tensor("b", 24, {(1ull << 63) - 1}, 1ull << 63).build(), false, "GG5");
  add("gg5_truncated", base().tensor("a", 0, {64}).data(std::string(100, '\0')).build(), false, "GG5");
  return s;
}

}  // namespace tgtest
