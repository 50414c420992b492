#pragma once
// A byte source with a size: what `tensorgate check` validates, a local file or a remote one
// (cli/remote/remote_file.hpp). Read in order; what the validator only counts is skipped when
// the size is known, so a 100 GB file costs what its header does.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace tensorgate::cli {

struct SourceRead {
  std::size_t bytes = 0;              // 0: the input has ended
  std::optional<std::string> error;   // the bytes cannot be had: no verdict on this input
};

class InputSource {
 public:
  virtual ~InputSource() = default;

  // The total size, when the source knows it: a regular file at once, a remote file after its
  // first read (Content-Range, Content-Length). Unknown for pipes and unsized streams.
  virtual std::optional<std::uint64_t> size() const = 0;

  // Up to out.size() of the next bytes. `wanted` is how many the validator still needs to look
  // at (bytes_wanted()): a remote source sizes its requests by it.
  virtual SourceRead read(std::span<std::byte> out, std::uint64_t wanted) = 0;

  // The validator only counts the next `count` bytes (the size is known), or will not look at
  // them (seeks()): they are not read.
  virtual std::optional<std::string> skip(std::uint64_t count) = 0;

  // Whether skip() may come anywhere and costs a seek, not the bytes (a local regular file or
  // block device): then a run the validator will not look at (bytes_skippable(), an ONNX
  // initializer's raw data) is skipped in the middle of the input too. No for a remote file,
  // whose skip ends the answer being read, and for sources of unknown size.
  virtual bool seeks() const { return false; }

  // Whether the last bytes a validator asks for after a skip (tail_wanted(): FK.polyglot's
  // search for a zip end record) are read: yes for a local file (one seek), no for a remote
  // one (another request, and a server that ignores Range could not give them).
  virtual bool reads_tail() const { return true; }

  // Whether to stop at a final (invalid) verdict when the size is unknown, rather than read the
  // rest only to count it: yes for a network stream, no for a pipe (its writer would be cut off).
  virtual bool stop_when_final() const { return false; }

  // Whether the bytes may never end (a character device: /dev/urandom, a terminal): then at most
  // Limits::max_device_bytes are read while the verdict is not final. A pipe's writer and a
  // server end what they send.
  virtual bool may_never_end() const { return false; }
};

}  // namespace tensorgate::cli
