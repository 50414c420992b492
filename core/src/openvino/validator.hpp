#pragma once
// The OpenVINO IR push validator (docs/openvino.md): model.xml fed to expat as it arrives, in
// pieces of at most 64 KiB, so expat holds at most an unfinished token and one piece. A DOCTYPE,
// an entity declaration, an external or parameter entity, or a reference to an entity other than
// XML's five stops the parse before anything is expanded (OV.doctype); what expat allocates is
// counted and capped (OV.bounds). The elements are read by IrReader (ir_reader.hpp). Made by
// make_openvino_validator (tensorgate/openvino.hpp); the .bin is the faces' (weights_pair.cpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "openvino/ir_reader.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::openvino {

// What expat holds of the heap, counted by the allocator it is given (expat_memory.cpp).
struct ExpatMemory {
  std::uint64_t used = 0, cap = 0;
  bool refused = false;
};

class OpenVinoValidator final : public Validator {
 public:
  OpenVinoValidator(const Limits& limits, MemoryBudget* budget);
  ~OpenVinoValidator() override;
  OpenVinoValidator(const OpenVinoValidator&) = delete;
  OpenVinoValidator& operator=(const OpenVinoValidator&) = delete;

  // The report never depends on the size.
  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  // Every byte of the XML is parsed; once stopped, the rest is only counted.
  std::uint64_t bytes_wanted() const override { return stopped_ ? 0 : 1u << 20; }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

  // expat's handlers (validator.cpp) call these.
  void on_start(const char* name, const char** atts);
  void on_end();
  void on_doctype(const char* what);

 private:
  void parse(const char* data, std::size_t size, bool final);
  void parse_pieces(const char* data, std::size_t size);  // in kPiece pieces, within max_xml_bytes
  void end_at_bound();  // max_xml_bytes reached: an error before it, or OV.bounds
  void on_error();
  void stop();
  Progress progress() const;
  Report report() const;

  Limits limits_;
  FindingList findings_;
  BudgetHold memory_;
  ExpatMemory expat_memory_;
  IrReader reader_;
  void* parser_ = nullptr;  // XML_Parser
  std::optional<Aborted> aborted_;
  bool stopped_ = false, finished_ = false;
  std::uint64_t bytes_seen_ = 0, parsed_ = 0;
  std::string head_;  // the first bytes, until there are enough for expat's encoding guess
};

// expat's allocator over `memory` (expat_memory.cpp); the parser made with it, with the guards
// against entities set, or null when even that is refused.
void* make_guarded_parser(ExpatMemory& memory, void* user);

}  // namespace tensorgate::detail::openvino
