#pragma once
// One 512-byte tar header block as Python's tarfile reads it (TarInfo.frombuf): no magic is
// required, only a checksum that matches (unsigned or signed byte sum, the checksum field as
// spaces) and number fields that parse (octal text up to a NUL, or base-256 after 0x80/0xFF).
// tarfile is what torch.load's legacy loader opens a file with, before anything else.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::detail::tar {

inline constexpr std::size_t kBlock = 512;

// A byte count rounded up to whole blocks (tarfile's _block).
constexpr std::uint64_t padded(std::uint64_t n) { return n % kBlock ? n + (kBlock - n % kBlock) : n; }

struct TarHeader {
  std::string name;      // prefix + "/" + name, as tarfile joins them (not for GNU types)
  std::string linkname;
  std::int64_t size = 0;  // may be negative (base-256): the walker refuses it
  char type = '0';
};

enum class BlockKind : std::uint8_t { header, zeros, invalid };

struct ParsedBlock {
  BlockKind kind = BlockKind::invalid;
  TarHeader header;
  std::string why;  // invalid: what tarfile refuses
};

// `block` holds exactly kBlock bytes.
ParsedBlock parse_tar_block(std::string_view block);

// Whether the first bytes of a file are a tar header tarfile accepts (a file shorter than a
// block is not one).
bool starts_as_tar(std::string_view prefix);

// tarfile's member types.
namespace type {
inline constexpr char regular = '0', aregular = '\0', hardlink = '1', symlink = '2', chr = '3', blk = '4', dir = '5',
                      fifo = '6', contiguous = '7', gnu_longname = 'L', gnu_longlink = 'K', gnu_sparse = 'S',
                      pax = 'x', pax_global = 'g', solaris_pax = 'X';
}

// What tarfile does with a member's data blocks: regular files and unknown types have size
// bytes of data; links, directories, devices and FIFOs have none, whatever their size says.
bool has_data(char type);
bool is_regular(char type);

// A pax record's decimal number as Python's int() reads it: optional whitespace and sign,
// digits with single underscores between them; nullopt when int() would raise.
std::optional<std::int64_t> python_int(std::string_view text);

}  // namespace tensorgate::detail::tar
