#include "samples.hpp"

#include "st_builder.hpp"
#include "tensorgate/safetensors/writer.hpp"

namespace tgtest {
namespace {

std::string e(std::string_view name, std::string_view dtype, std::string_view shape, std::uint64_t b,
              std::uint64_t end) {
  return "\"" + std::string(name) + "\":{\"dtype\":\"" + std::string(dtype) + "\",\"shape\":" +
         std::string(shape) + ",\"data_offsets\":[" + std::to_string(b) + "," + std::to_string(end) + "]}";
}

// A canonical llama-named file with `layers` layers, written by the canonical writer.
std::string llama(int layers) {
  std::vector<std::string> names{"model.embed_tokens.weight", "model.norm.weight"};
  for (int i = 0; i < layers; ++i)
    for (const char* p : {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                          "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj", "input_layernorm",
                          "post_attention_layernorm"})
      names.push_back("model.layers." + std::to_string(i) + "." + p + ".weight");
  static const std::string data(64, '\x3c');
  std::vector<tensorgate::TensorSpec> specs;
  for (const auto& n : names)
    specs.push_back({n, tensorgate::Dtype::BF16, {4, 8},
                     std::as_bytes(std::span<const char>(data.data(), data.size()))});
  return tensorgate::write_safetensors(specs, {{"format", "pt"}}).bytes;
}

std::string many_tensors(int count) {
  std::string h = "{";
  for (int i = 0; i < count; ++i) {
    if (i) h += ',';
    h += e("t" + std::to_string(100000 + i), "U8", "[1]", i, i + 1);
  }
  return st_file(h + "}", zeros(count));
}

const std::string kW = e("w", "F32", "[2,2]", 0, 16);

// "[1,1,...,1]": a shape of `n` dimensions (more than a dimension chunk holds).
std::string ones(int n) {
  std::string out = "[1";
  for (int i = 1; i < n; ++i) out += ",1";
  return out + "]";
}

// One tensor of every dtype, by the canonical writer: every dtype name in one file.
std::string every_dtype() {
  static const std::string data(64, '\x11');  // 8 elements of up to 64 bits
  std::vector<tensorgate::TensorSpec> specs;
  for (const auto& d : tensorgate::all_dtypes())
    specs.push_back({"t_" + std::string(d.name), d.dtype, {2, 4},
                     std::as_bytes(std::span<const char>(data.data(), d.bits))});
  return tensorgate::write_safetensors(specs, {{"format", "tinyllm"}}).bytes;
}

}  // namespace

std::vector<Sample> safetensors_samples() {
  const std::string seed = st_file(R"({"__metadata__":{"format":"tinyllm"},)" + kW + "}", zeros(16));
  std::string deep = std::string(130, '[') + std::string(130, ']');
  std::string hundred_million = "{}";
  hundred_million.append(100'000'000 - 2, ' ');
  return {
      {"valid-seed-example.safetensors", seed, true, "", 1},
      {"valid-llama-2-layers.safetensors", llama(2), true, "", 1},
      {"valid-empty.safetensors", st_file("{}"), true, "", 1},
      {"valid-every-dtype.safetensors", every_dtype(), true, "", 1},
      {"valid-many-dimensions.safetensors", st_file("{" + e("d", "U8", ones(5000), 0, 1) + "}", zeros(1)), true, "", 1},
      {"valid-max-dimension.safetensors", st_file("{" + e("z", "BOOL", "[18446744073709551615,0]", 0, 0) + "}"), true, "", 1},
      {"valid-out-of-range-number.safetensors", st_file(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":[1e400,true,-0.5]}})", zeros(1)), true, "STW", 0},
      {"valid-scalar-and-zero-size.safetensors", st_file("{" + e("s", "F64", "[]", 0, 8) + "," + e("z", "F64", "[3,0]", 8, 8) + "}", zeros(8)), true, "", 1},
      {"valid-subbyte.safetensors", st_file("{" + e("a", "F6_E2M3", "[4]", 0, 3) + "," + e("b", "F4", "[2,3]", 3, 6) + "}", zeros(6)), true, "", 1},
      {"valid-zero-product-prefix-overflow.safetensors", st_file("{" + e("z", "U8", "[9223372036854775808,9223372036854775808,0]", 0, 0) + "}"), true, "STW", 1},
      {"valid-unknown-field.safetensors", st_file(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"q":{}}})", zeros(1)), true, "STW", 0},
      {"valid-noncanonical-order.safetensors", st_file("{" + e("b", "F32", "[1]", 0, 4) + "," + e("a", "F32", "[1]", 4, 8) + "}", zeros(8)), true, "STC1", 0},
      {"valid-noncanonical-whitespace.safetensors", st_file("{ " + kW + " }", zeros(16)), true, "STC2", 0},
      {"valid-noncanonical-metadata.safetensors", st_file(R"({"__metadata__":{"b":"1","a":"2"}})"), true, "STC3", 0},
      {"valid-noncanonical-padding.safetensors", st_file_n(16, "{}              "), true, "STC4", 0},
      {"valid-tab-padding.safetensors", st_file_n(8, "{}\t     "), true, "STW", 0},
      {"valid-leading-whitespace.safetensors", st_file_n(8, "\n{}     "), true, "STC2", 0},
      {"valid-name-control.safetensors", st_file(R"({"a\u0001":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", zeros(1)), true, "STW", 1},
      {"valid-deep-unknown-field.safetensors", st_file(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":)" + std::string(100, '[') + std::string(100, ']') + "}}", zeros(1)), true, "STW", 0},
      {"valid-many-tensors.safetensors", many_tensors(3000), true, "", 1},
      {"valid-header-exactly-100000000.safetensors", st_file(hundred_million), true, "STW", 0},
      {"st1-too-short.safetensors", std::string("\x08\0\0\0", 4), false, "ST1", -1},
      {"st1-header-too-large.safetensors", st_file_n(100'000'001, "{}"), false, "ST1", -1},
      // A length of 0xff bytes before a '{': the content says safetensors, and ST1 that the length is wrong.
      {"st1-length-wraps.safetensors", st_file_n(UINT64_MAX - 7, "{}"), false, "ST1", -1},
      {"st1-truncated-header.safetensors", st_file_n(200, "{}"), false, "ST1", -1},
      {"st2-syntax.safetensors", st_file(R"({"w":{"dtype":"F32",}})"), false, "ST2", -1},
      {"st2-not-object.safetensors", st_file("[1,2,3]"), false, "ST2", -1},
      {"st2-bom.safetensors", st_file("\xEF\xBB\xBF{}"), false, "ST2", -1},
      {"st2-invalid-utf8.safetensors", st_file("{\"\xc3\x28\":{}}"), false, "ST2", -1},
      {"st2-surrogate.safetensors", st_file(R"({"__metadata__":{"k":"\udfff"}})"), false, "ST2", -1},
      {"st2-duplicate-after-unescape.safetensors", st_file("{" + e("w", "U8", "[1]", 0, 1) + "," + e("\\u0077", "U8", "[1]", 1, 2) + "}", zeros(2)), false, "ST2", -1},
      {"st2-nul-padding.safetensors", st_file_n(16, std::string("{}\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16)), false, "ST2", -1},
      {"st2-depth.safetensors", st_file(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":)" + deep + "}}", zeros(1)), false, "ST2", -1},
      {"st2-empty-header.safetensors", st_file_n(0, ""), false, "ST2", -1},
      {"st3-null-metadata.safetensors", st_file(R"({"__metadata__":null})"), false, "ST3", -1},
      {"st3-number-value.safetensors", st_file(R"({"__metadata__":{"a":1}})"), false, "ST3", -1},
      {"st4-unknown-dtype.safetensors", st_file("{" + e("w", "f32", "[1]", 0, 4) + "}", zeros(4)), false, "ST4", -1},
      {"st4-dtype-object.safetensors", st_file(R"({"w":{"dtype":{"F32":null},"shape":[1],"data_offsets":[0,4]}})", zeros(4)), false, "ST4", -1},
      {"st4-entry-array.safetensors", st_file(R"({"w":["F32",[1],[0,4]]})", zeros(4)), false, "ST4", -1},
      {"st4-float-dimension.safetensors", st_file("{" + e("w", "F32", "[1.0]", 0, 4) + "}", zeros(4)), false, "ST4", -1},
      {"st4-exponent-offset.safetensors", st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4e0]}})", zeros(4)), false, "ST4", -1},
      {"st4-negative-zero.safetensors", st_file("{" + e("w", "F32", "[-0]", 0, 0) + "}"), false, "ST4", -1},
      {"st4-negative-dimension.safetensors", st_file("{" + e("w", "F32", "[-1]", 0, 4) + "}", zeros(4)), false, "ST4", -1},
      {"st4-three-offsets.safetensors", st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4,4]}})", zeros(4)), false, "ST4", -1},
      {"st4-begin-after-end.safetensors", st_file("{" + e("w", "F32", "[0]", 4, 0) + "}", zeros(4)), false, "ST4", -1},
      {"st4-overflow.safetensors", st_file("{" + e("w", "U8", "[4294967296,4294967297]", 0, 0) + "}"), false, "ST4", -1},
      {"st4-sub-byte.safetensors", st_file("{" + e("w", "F4", "[3]", 0, 2) + "}", zeros(2)), false, "ST4", -1},
      {"st4-size-mismatch.safetensors", st_file("{" + e("w", "F32", "[2]", 0, 4) + "}", zeros(4)), false, "ST4", -1},
      {"st4-missing-shape.safetensors", st_file(R"({"w":{"dtype":"F32","data_offsets":[0,4]}})", zeros(4)), false, "ST4", -1},
      {"st5-gap.safetensors", st_file("{" + e("a", "U8", "[1]", 0, 1) + "," + e("b", "U8", "[1]", 2, 3) + "}", zeros(3)), false, "ST5", -1},
      {"st5-overlap.safetensors", st_file("{" + e("a", "U8", "[2]", 0, 2) + "," + e("b", "U8", "[1]", 1, 2) + "}", zeros(2)), false, "ST5", -1},
      {"st5-first-not-at-zero.safetensors", st_file("{" + e("a", "U8", "[1]", 1, 2) + "}", zeros(2)), false, "ST5", -1},
      {"st5-trailing.safetensors", st_file("{" + kW + "}", zeros(17)), false, "ST5", -1},
      {"st5-truncated.safetensors", st_file("{" + kW + "}", zeros(15)), false, "ST5", -1},
      {"st5-no-tensors-with-data.safetensors", st_file("{}", zeros(1)), false, "ST5", -1},
      {"st5-zero-size-at-gap.safetensors", st_file("{" + e("a", "U8", "[1]", 0, 1) + "," + e("z", "U8", "[0]", 5, 5) + "}", zeros(1)), false, "ST5", -1},
  };
}

}  // namespace tgtest
