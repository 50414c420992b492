// ggml's type table and llama.cpp's file-type names (docs/rules.md, GG4.type).
#include <array>
#include <iterator>

#include "tensorgate/gguf.hpp"

namespace tensorgate {
namespace {

// id, name, block size, type size: ggml's type traits (2026-08). Ids 4, 5 (Q4_2, Q4_3), 31-33
// (Q4_0_4_4, Q4_0_4_8, Q4_0_8_8) and 36-38 (IQ4_NL_4_4, ...) were removed and are refused.
constexpr GgmlTypeInfo kTypes[] = {
    {0, "F32", 1, 4},          {1, "F16", 1, 2},          {2, "Q4_0", 32, 18},
    {3, "Q4_1", 32, 20},       {6, "Q5_0", 32, 22},       {7, "Q5_1", 32, 24},
    {8, "Q8_0", 32, 34},       {9, "Q8_1", 32, 36},       {10, "Q2_K", 256, 84},
    {11, "Q3_K", 256, 110},    {12, "Q4_K", 256, 144},    {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210},    {15, "Q8_K", 256, 292},    {16, "IQ2_XXS", 256, 66},
    {17, "IQ2_XS", 256, 74},   {18, "IQ3_XXS", 256, 98},  {19, "IQ1_S", 256, 50},
    {20, "IQ4_NL", 32, 18},    {21, "IQ3_S", 256, 110},   {22, "IQ2_S", 256, 82},
    {23, "IQ4_XS", 256, 136},  {24, "I8", 1, 1},          {25, "I16", 1, 2},
    {26, "I32", 1, 4},         {27, "I64", 1, 8},         {28, "F64", 1, 8},
    {29, "IQ1_M", 256, 56},    {30, "BF16", 1, 2},        {34, "TQ1_0", 256, 54},
    {35, "TQ2_0", 256, 66},    {39, "MXFP4", 32, 17},     {40, "NVFP4", 64, 36},
    {41, "Q1_0", 128, 18},     {42, "Q2_0", 64, 18},
};
constexpr std::uint32_t kIdCount = 43;

constexpr std::array<std::int8_t, kIdCount> index_by_id() {
  std::array<std::int8_t, kIdCount> index{};
  for (auto& i : index) i = -1;
  for (std::size_t i = 0; i < std::size(kTypes); ++i) index[kTypes[i].id] = static_cast<std::int8_t>(i);
  return index;
}
constexpr auto kIndex = index_by_id();

// llama.cpp's llama_ftype (general.file_type), "MOSTLY_" dropped as llama.cpp prints them.
constexpr std::string_view kFileTypes[] = {
    "ALL_F32", "F16",     "Q4_0",   "Q4_1",    "Q4_1_SOME_F16", "", "", "Q8_0", "Q5_0",
    "Q5_1",    "Q2_K",    "Q3_K_S", "Q3_K_M",  "Q3_K_L", "Q4_K_S", "Q4_K_M", "Q5_K_S", "Q5_K_M",
    "Q6_K",    "IQ2_XXS", "IQ2_XS", "Q2_K_S",  "IQ3_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S",
    "IQ3_M",   "IQ2_S",   "IQ2_M",  "IQ4_XS",  "IQ1_M",  "BF16",   "", "", "", "TQ1_0", "TQ2_0",
    "MXFP4_MOE", "NVFP4", "Q1_0",
};

}  // namespace

const GgmlTypeInfo* ggml_type_info(std::uint32_t id) {
  if (id >= kIdCount || kIndex[id] < 0) return nullptr;
  return &kTypes[static_cast<std::size_t>(kIndex[id])];
}

std::span<const GgmlTypeInfo> ggml_types() { return kTypes; }

std::string_view gguf_file_type_name(std::uint32_t file_type) {
  return file_type < std::size(kFileTypes) ? kFileTypes[file_type] : std::string_view();
}

}  // namespace tensorgate
