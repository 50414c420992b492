#pragma once
// The header of a NumPy .npy file: a Python dict literal, as numpy.lib.format writes and
// reads it (ast.literal_eval of at most 10,000 bytes): {'descr': <dtype>, 'fortran_order':
// <bool>, 'shape': <tuple of ints>}. Parsed without recursion; a structured dtype (a list of
// fields) or a subarray (a (dtype, shape) tuple) is accepted with its item size unknown, and
// walked for an object dtype anywhere in it (NumPy then unpickles the data: dtype.hasobject).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate::detail::npy {

struct NpyHeader {
  std::string descr;                 // the dtype string, "[structured]" or "(subarray)"
  bool structured = false;
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
  std::optional<std::uint64_t> item_size;  // simple dtypes
  bool object = false;               // an object dtype, alone or in a structure: the data is a pickle
};

struct HeaderResult {
  std::optional<NpyHeader> header;
  std::string error;  // why it is not one, when header is empty
};

HeaderResult parse_npy_header(std::string_view text);

// The item size of a simple dtype string ("<f4" -> 4, "<U10" -> 40, "|O" -> object).
struct DtypeSize {
  std::optional<std::uint64_t> bytes;
  bool object = false;
  bool valid = false;
};
DtypeSize npy_dtype_size(std::string_view descr);

// Whether a dtype string names NumPy's object dtype ("O", "|O", "O8", "object").
bool names_object(std::string_view descr);

}  // namespace tensorgate::detail::npy
