// ReportFieldsWriter: a report's fields written a piece at a time (the service's streamed
// answers) are exactly write_report_fields' text, whatever the piece size, for every summary
// kind; a piece ends at the first item boundary past the size asked for.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gguf_builder.hpp"
#include "pickle_builder.hpp"
#include "st_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"
#include "zip_builder.hpp"

namespace {

using namespace tgtest;

std::string whole(const tensorgate::Report& r) {
  std::string out;
  tensorgate::JsonWriter w([&](std::string_view s) { out += s; });
  tensorgate::write_report_fields(w, r, {});
  w.flush();
  return out;
}

// The pieces, each as long as it came out of one resume().
std::vector<std::string> pieces(const tensorgate::Report& r, std::size_t piece_bytes) {
  std::vector<std::string> out(1);
  tensorgate::JsonWriter w([&](std::string_view s) { out.back() += s; });
  tensorgate::ReportFieldsWriter f(w, r, {});
  for (;;) {
    const bool more = f.resume(piece_bytes);
    w.flush();
    if (!more) break;
    out.emplace_back();
  }
  EXPECT_FALSE(f.resume(piece_bytes));  // done stays done, and writes nothing
  w.flush();
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += p;
  return out;
}

tensorgate::Report detected(const std::string& bytes) {
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "");
  v->set_total_size(bytes.size());
  v->feed(bytes);
  return v->finish();
}

std::string many_tensors(int n) {
  std::string h = "{\"__metadata__\":{";
  for (int i = 0; i < 300; ++i) h += (i ? ",\"key" : "\"key") + std::to_string(i) + "\":\"" + std::string(100, 'v') + "\"";
  h += "}";
  for (int i = 0; i < n; ++i)
    h += ",\"model.layers." + std::to_string(i) + ".weight\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[" +
         std::to_string(i) + "," + std::to_string(i + 1) + "]}";
  return st_file(h + "}", std::string(static_cast<std::size_t>(n), 'x'));
}

TEST(ReportStream, PiecesJoinToTheWholeReportForEveryKind) {
  GgufBuilder gguf;
  for (int i = 0; i < 2000; ++i) gguf.tensor("blk." + std::to_string(i) + ".weight", 0, {4});
  std::vector<TorchTensor> torch;
  for (int i = 0; i < 500; ++i) torch.push_back({"layer." + std::to_string(i) + ".weight", "FloatStorage", {2, 2}});
  const std::vector<std::string> files = {
      many_tensors(5000),
      st_file(R"({"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}})", zeros(4)),  // findings only
      gguf.build(),
      torch_archive(torch),
      legacy_torch_stream(torch),
      PickleBuilder().proto(4).call("os", "system", "id", true).stop().bytes(),
      "version https://git-lfs.github.com/spec/v1\noid sha256:" + std::string(64, 'a') + "\nsize 12\n",
  };
  for (const std::string& file : files) {
    const tensorgate::Report r = detected(file);
    const std::string want = whole(r);
    for (const std::size_t size : {std::size_t{1}, std::size_t{4096}, std::size_t{65536}, SIZE_MAX}) {
      const auto parts = pieces(r, size);
      ASSERT_EQ(joined(parts), want) << size << " " << tensorgate::format_name(r.format);
      if (size == SIZE_MAX) EXPECT_EQ(parts.size(), 1u);
    }
  }
}

// A large inventory comes in many pieces, each ending within one item of the size asked for.
TEST(ReportStream, PiecesEndAtTheFirstItemPastTheSizeAskedFor) {
  const tensorgate::Report r = detected(many_tensors(20'000));
  const std::size_t total = whole(r).size();
  const auto parts = pieces(r, 65536);
  EXPECT_GE(parts.size(), total / (65536 + 1024));
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    EXPECT_GE(parts[i].size(), 65536u) << i;
    EXPECT_LT(parts[i].size(), 65536u + 1024) << i;  // one metadata value or tensor entry past it
  }
}

}  // namespace
