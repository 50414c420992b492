// POST /v1/check-model over a real socket: the hub uploads each file to /v1/validate, then sends
// the reports with config.json and the index, and gets the cross-file verdict.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "gguf_builder.hpp"
#include "model_dir_builder.hpp"
#include "zip_builder.hpp"
#include "model_dir_check.hpp"
#include "tensorgate/report_writers.hpp"
#include "split_builder.hpp"
#include "tensorgate/chat_template.hpp"
#include "service_support.hpp"
#include "tensorgate/safetensors/writer.hpp"
#include "wire_builder.hpp"

using namespace tgservice;

namespace {

// The file a test model directory would hold, as bytes (single file, F32 zeros).
std::string weights(const std::vector<tgtest::DirTensor>& tensors, const std::map<std::string, std::string>& meta) {
  std::vector<std::string> data;
  data.reserve(tensors.size());
  std::vector<tensorgate::TensorSpec> specs;
  for (const auto& t : tensors) {
    std::uint64_t n = 1;
    for (auto d : t.shape) n *= d;
    data.emplace_back(n * tensorgate::dtype_info(t.dtype).bits / 8, '\0');
    specs.push_back({t.name, t.dtype, t.shape, std::as_bytes(std::span<const char>(data.back()))});
  }
  return tensorgate::write_safetensors(specs, tensorgate::Metadata(meta.begin(), meta.end())).bytes;
}

std::string check_body(const std::string& config, const boost::json::value& report) {
  boost::json::object body{{"config", boost::json::parse(config)}, {"index", nullptr},
                           {"files", {{"model.safetensors", report}}}};
  return boost::json::serialize(body);
}

}  // namespace

TEST(ServiceCheckModel, ValidatedFilesCheckedTogether) {
  TestServer server;
  const tgtest::LlamaShape shape;
  const auto validated = upload(server.port(), weights(tgtest::llama_tensors(shape), {{"format", "pt"}}), "name=model.safetensors");
  ASSERT_EQ(validated.status, 200u);
  const auto res = request(server.port(), "POST", "/v1/check-model", check_body(shape.config_json(), validated.json()),
                           {"Content-Type: application/json"});
  EXPECT_EQ(res.status, 200u) << res.body;
  EXPECT_EQ(str(res.json().at("format")), "model-directory");
  EXPECT_EQ(res.json().at("summary").at("architecture"), "llama");
}

TEST(ServiceCheckModel, ConfigContradictingTheFilesIs422) {
  TestServer server;
  tgtest::LlamaShape shape;
  const auto validated = upload(server.port(), weights(tgtest::llama_tensors(shape), {{"format", "pt"}}));
  ASSERT_EQ(validated.status, 200u);
  shape.hidden = 16;  // the config now implies other shapes
  const auto res = request(server.port(), "POST", "/v1/check-model", check_body(shape.config_json(), validated.json()));
  EXPECT_EQ(res.status, 422u) << res.body;
  EXPECT_EQ(str(res.json().at("findings").at(0).at("rule")).substr(0, 3), "AR.");
}

TEST(ServiceCheckModel, MalformedRequestsAre400) {
  TestServer server;
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", "{\"files\": 3}").code(), "bad-check-model");
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", "not json").code(), "bad-check-model");
  const std::string report_without_inventory = R"({"files": {"model.safetensors": {"valid": true, "summary": {"metadata": {}}}}})";
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", report_without_inventory).code(), "bad-check-model");
  EXPECT_EQ(request(server.port(), "GET", "/v1/check-model").status, 405u);
}

TEST(ServiceCheckModel, BodyAboveTheLimitIs413) {
  ServiceConfig config = test_config();
  config.max_check_model_bytes = 64;
  TestServer server(config);
  const auto res = request(server.port(), "POST", "/v1/check-model", std::string(100, ' '));
  EXPECT_EQ(res.status, 413u);
  EXPECT_EQ(res.code(), "body-too-large");
}

namespace {

std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

boost::json::array findings_of(const tensorgate::Report& r) {
  return boost::json::parse(tensorgate::report_json(r)).at("findings").as_array();
}

// The hub's path for a directory: every file through /v1/validate, then /v1/check-model with
// the config, the index, the reports and the other names; against `tensorgate check DIR`.
// Returns what the CLI found.
std::vector<tensorgate::CheckedFile> expect_cli_and_service_agree(const TestServer& server, const tgtest::ScratchDir& d) {
  std::vector<tensorgate::CheckedFile> cli;
  tensorgate::cli::check_model_directory(d.path().string(), tensorgate::FormatChoice::auto_detect, cli);
  if (!cli.back().directory) {
    ADD_FAILURE() << "no directory entry";
    return cli;
  }
  std::vector<std::filesystem::path> paths(std::filesystem::directory_iterator(d.path()), {});
  std::sort(paths.begin(), paths.end());
  boost::json::object files, templates, body{{"config", nullptr}, {"index", nullptr}};
  boost::json::array others;
  for (const auto& p : paths) {
    const std::string name = p.filename().string(), bytes = read_bytes(p);
    if (name == "config.json") body["config"] = boost::json::parse(bytes);
    else if (name == "model.safetensors.index.json") body["index"] = boost::json::parse(bytes);
    else if (name == "pytorch_model.bin.index.json") body["bin_index"] = boost::json::parse(bytes);
    // The files the CLI's walk checked (by content) go through /v1/validate, the rest are named.
    const auto it = std::find_if(cli.begin(), cli.end(), [&](const auto& f) { return f.path == p.string(); });
    if (it == cli.end()) {  // chat template files are judged in the directory's entry
      if (tensorgate::chat_template_file_kind(name)) templates[name] = bytes;
      else if (name != "config.json" && !name.ends_with(".index.json")) others.emplace_back(name);
      continue;
    }
    const auto validated = upload(server.port(), bytes, "name=" + name);
    EXPECT_EQ(validated.json().at("findings"), findings_of(*it->report)) << name;
    files[name] = validated.json();
  }
  body["files"] = std::move(files);
  body["other_files"] = std::move(others);
  if (!templates.empty()) body["chat_templates"] = std::move(templates);
  const auto res = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  const tensorgate::DirectoryReport& dir = *cli.back().directory;
  EXPECT_EQ(res.status, dir.valid ? 200u : 422u) << res.body;
  boost::json::array expected;
  for (const auto& f : dir.findings) {
    std::string one;
    {
      tensorgate::JsonWriter w([&one](std::string_view s) { one.append(s); });
      tensorgate::write_finding(w, f);
    }  // the writer flushes when it ends
    expected.push_back(boost::json::parse(one));
  }
  EXPECT_EQ(res.json().at("findings"), expected) << res.body;
  return cli;
}

}  // namespace

// The CLI and the service give a model directory the same findings, per file and across files.
TEST(ServiceCheckModel, CliAndServiceAgreeOnModelDirectories) {
  TestServer server;
  tgtest::LlamaShape shape;
  {
    tgtest::ScratchDir d;  // single file, valid
    d.write("config.json", shape.config_json());
    d.write_weights(tgtest::llama_tensors(shape), 1);
    expect_cli_and_service_agree(server, d);
  }
  {
    tgtest::ScratchDir d;  // three shards and their index, valid
    d.write("config.json", shape.config_json());
    d.write_weights(tgtest::llama_tensors(shape), 3);
    d.write("README.md", "# a model\n");
    expect_cli_and_service_agree(server, d);
  }
  {
    tgtest::ScratchDir d;  // tinyllm int4 with a scales tensor missing: TL warnings per file, errors across
    tgtest::LlamaShape q = shape;
    q.int4_group = 4;
    auto tensors = tgtest::llama_tensors(q);
    std::erase_if(tensors, [](const auto& t) { return t.name == "model.layers.1.mlp.down_proj.weight.scales"; });
    d.write("config.json", q.config_json(true));
    d.write_weights(tensors, 1, {{"format", "tinyllm"}, {"quant", "int4-g4-sym"}});
    d.write("tokenizer.json", "{}");
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_TRUE(cli.front().report->has("TL"));  // the file's own warnings
    EXPECT_TRUE(cli.back().directory->findings.size() >= 2);  // TL errors across the files
    EXPECT_FALSE(cli.back().directory->valid);
  }
  {
    tgtest::ScratchDir d;  // the config contradicts the tensors
    tgtest::LlamaShape other = shape;
    other.hidden = 16;
    d.write("config.json", other.config_json());
    d.write_weights(tgtest::llama_tensors(shape), 2);
    expect_cli_and_service_agree(server, d);
  }
}

// The same for the kinds beyond safetensors: a malicious pickle beside valid safetensors, an LFS
// pointer and an HTML page under weights' names, torch archives alone, sharded pickles and
// their index, GGUF files alone.
TEST(ServiceCheckModel, CliAndServiceAgreeOnEveryFileKind) {
  TestServer server;
  const tgtest::LlamaShape shape;
  {
    tgtest::ScratchDir d;
    d.write("config.json", shape.config_json());
    d.write_weights(tgtest::llama_tensors(shape), 1);
    d.write("pytorch_model.bin", tgtest::PickleBuilder().proto(2).call("os", "system", "id").stop().bytes());
    d.write("README.md", "# a model\n");
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_FALSE(cli.back().directory->valid);
  }
  {
    tgtest::ScratchDir d;
    d.write("config.json", shape.config_json());
    d.write("model.safetensors", "version https://git-lfs.github.com/spec/v1\noid sha256:"
                                 "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n");
    d.write("pytorch_model.bin", "<!DOCTYPE html><html></html>\n");
    expect_cli_and_service_agree(server, d);
  }
  {
    tgtest::ScratchDir d;
    d.write("model.pt", tgtest::torch_archive({{"w", "FloatStorage", {2, 3}}}));
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_TRUE(cli.back().directory->valid);
  }
  {
    tgtest::ScratchDir d;
    d.write("pytorch_model-00001-of-00002.bin", tgtest::torch_archive({{"a", "FloatStorage", {2, 2}}}));
    d.write("pytorch_model-00002-of-00002.bin", tgtest::legacy_torch_stream({{"b", "FloatStorage", {3}}}));
    d.write("pytorch_model.bin.index.json", R"({"metadata":{"total_size":28},"weight_map":{)"
                                            R"("a":"pytorch_model-00001-of-00002.bin","b":"pytorch_model-00001-of-00002.bin"}})");
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_FALSE(cli.back().directory->valid);  // b is in the other shard
  }
  {
    tgtest::ScratchDir d;
    d.write("a.gguf", tgtest::gguf_minimal(1));
    d.write("b.gguf", tgtest::gguf_minimal(2));
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_TRUE(cli.back().directory->valid);
  }
}

// Chat template files (CT) and split GGUF sets (GS) the same way.
TEST(ServiceCheckModel, CliAndServiceAgreeOnTemplatesAndSplitSets) {
  TestServer server;
  tgtest::LlamaShape shape;
  {
    tgtest::ScratchDir d;  // benign templates in both files: valid, listed in the summary
    d.write("config.json", shape.config_json());
    d.write_weights(tgtest::llama_tensors(shape), 1);
    d.write("tokenizer_config.json", R"({"bos_token": "<s>", "chat_template": [{"name": "default", "template": "{{ m['content'] }}"}, {"name": "tool_use", "template": "{{ x[y] }}"}]})");
    d.write("chat_template.jinja", "{% for m in messages %}{{ m.content }}{% endfor %}");
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_TRUE(cli.back().directory->valid);
    EXPECT_EQ(cli.back().directory->summary.chat_templates.size(), 3u);
  }
  {
    tgtest::ScratchDir d;  // a payload in chat_template.jinja, another in tokenizer_config.json
    d.write("config.json", shape.config_json());
    d.write_weights(tgtest::llama_tensors(shape), 1);
    d.write("tokenizer_config.json", R"({"chat_template": "{{ x|attr('\x5f\x5fclass\x5f\x5f') }}"})");
    d.write("chat_template.jinja", "{{ cycler.__init__.__globals__.os.popen('id') }}");
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_FALSE(cli.back().directory->valid);
  }
  {
    tgtest::ScratchDir d;  // a whole split GGUF set and a GGUF tokenizer template: one model
    for (const auto& s : tgtest::build_shards(tgtest::split_set("m", 3))) d.write(s.name, s.bytes);
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_TRUE(cli.back().directory->valid);
    EXPECT_EQ(cli.back().directory->summary.parameters, 64u);
  }
  {
    tgtest::ScratchDir d;  // a set with split.no counted from 1 and a shard missing
    auto set = tgtest::split_set("m", 4);
    for (std::size_t i = 0; i < set.size(); ++i) set[i].split_no = i + 1;
    set.erase(set.begin() + 3);
    for (const auto& s : tgtest::build_shards(set)) d.write(s.name, s.bytes);
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_FALSE(cli.back().directory->valid);
  }
}

TEST(ServiceCheckModel, TemplatesAndGgufReportsOfTheWrongFormAre400) {
  TestServer server;
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", R"({"files": {}, "chat_templates": ["x"]})").code(), "bad-check-model");
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", R"({"files": {}, "chat_templates": {"README.md": "x"}})").code(),
            "bad-check-model");
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", R"({"files": {}, "chat_templates": {"a.jinja": 1}})").code(),
            "bad-check-model");
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", R"({"files": {"m.gguf": {"valid": true, "summary": {"version": 3}}}})").code(),
            "bad-check-model");
  const auto ok = request(server.port(), "POST", "/v1/check-model", R"({"files": {}, "chat_templates": {"chat_template.jinja": "{{ x.__class__ }}"}})");
  EXPECT_EQ(ok.status, 422u) << ok.body;
  bool ct = false;
  const boost::json::value answer = ok.json();
  for (const auto& f : answer.at("findings").as_array()) ct = ct || str(f.at("rule")) == "CT.python-internals";
  EXPECT_TRUE(ct) << ok.body;
}

// config.json sent as its text is checked as the CLI checks the file: a duplicate key in it is
// the directory's MD.config-invalid, not a malformed request.
TEST(ServiceCheckModel, ConfigAsTextIsCheckedLikeTheFile) {
  TestServer server;
  const tgtest::LlamaShape shape;
  const auto validated = upload(server.port(), weights(tgtest::llama_tensors(shape), {{"format", "pt"}}), "name=model.safetensors");
  ASSERT_EQ(validated.status, 200u);
  boost::json::object body{{"config", R"({"model_type": "llama", "model_type": "llama"})"}, {"index", nullptr},
                           {"files", {{"model.safetensors", validated.json()}}}};
  const auto res = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  EXPECT_EQ(res.status, 422u) << res.body;
  EXPECT_EQ(str(res.json().at("findings").at(0).at("rule")), "MD.config-invalid");
  body["config"] = shape.config_json();  // the same text as a valid file: as good as the object
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body)).status, 200u);
}

namespace {

std::string onnx_fixture(const std::string& name) { return read_bytes(std::string(TG_SOURCE_DIR) + "/tests/data/onnx/" + name); }
std::string savedmodel_fixture(const std::string& name) {
  return read_bytes(std::string(TG_SOURCE_DIR) + "/tests/data/savedmodel/" + name);
}

std::vector<std::string> rule_ids(const boost::json::value& report) {
  std::vector<std::string> ids;
  for (const auto& f : report.at("findings").as_array()) ids.push_back(str(f.at("rule")));
  return ids;
}

}  // namespace

// ONNX models as the CLI's directory check has them: one beside config.json makes the model
// (its initializers the parameters); those of the onnx/ folder (transformers.js) are the
// folder's models, and one that is invalid is the directory's MD.invalid-file, since the
// answer has no entry of the file's own.
TEST(ServiceCheckModel, OnnxModelsBesideTheConfigAndInTheOnnxFolder) {
  TestServer server;
  const tgtest::LlamaShape shape;
  {
    tgtest::ScratchDir d;  // a model beside its config: the same findings from the CLI and the service
    d.write("config.json", shape.config_json());
    d.write("model.onnx", onnx_fixture("linear.onnx"));
    const auto cli = expect_cli_and_service_agree(server, d);
    EXPECT_EQ(cli.back().directory->summary.weights_format, "onnx");
    EXPECT_EQ(cli.back().directory->summary.parameters, 15u);
  }
  const auto validated = upload(server.port(), onnx_fixture("linear.onnx"), "name=model.onnx");
  ASSERT_EQ(validated.status, 200u) << validated.body;
  ASSERT_EQ(str(validated.json().at("format")), "onnx");
  boost::json::object body{{"config", boost::json::parse(shape.config_json())}, {"index", nullptr},
                           {"files", {{"onnx/model.onnx", validated.json()}}}};
  const auto ok = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  EXPECT_EQ(ok.status, 200u) << ok.body;
  EXPECT_EQ(rule_ids(ok.json()), std::vector<std::string>{"AR.unknown-architecture"});  // as the CLI's js/ case
  EXPECT_EQ(ok.json().at("summary").at("parameters"), 0);  // the folder's models are variants, not the model

  // A location that climbs out of the model's directory ("../../etc/passwd.x" in place of the
  // writer's name, as many bytes, so every length still holds): /v1/validate refuses the model.
  std::string hostile = onnx_fixture("external.onnx");
  for (std::size_t at; (at = hostile.find("external.onnx.data")) != std::string::npos;) hostile.replace(at, 18, "../../etc/passwd.x");
  const auto refused = upload(server.port(), hostile, "name=model.onnx");
  EXPECT_EQ(refused.status, 422u) << refused.body;
  const std::vector<std::string> ids = rule_ids(refused.json());
  EXPECT_FALSE(ids.empty());
  EXPECT_TRUE(std::all_of(ids.begin(), ids.end(), [](const std::string& r) { return r == "OX.external-location"; })) << refused.body;
  for (const char* name : {"onnx/model.onnx", "model.onnx"}) {
    body["files"] = boost::json::object{{name, refused.json()}};
    const auto res = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
    EXPECT_EQ(res.status, 422u) << name << ": " << res.body;
    EXPECT_EQ(rule_ids(res.json()), (std::vector<std::string>{"MD.invalid-file", "AR.unknown-architecture"})) << name << ": " << res.body;
  }
  // A report without its initializers (tensors=false) cannot stand for the model.
  const auto bare = upload(server.port(), onnx_fixture("linear.onnx"), "name=model.onnx&tensors=false");
  body["files"] = boost::json::object{{"onnx/model.onnx", bare.json()}};
  EXPECT_EQ(request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body)).code(), "bad-check-model");
}

// A SavedModel folder as the web page sends it: saved_model.pb's report makes the model (its
// variables are files the service never sees); one whose graph reads files is the directory's.
TEST(ServiceCheckModel, SavedModelGraphMakesTheModel) {
  TestServer server;
  const auto validated = upload(server.port(), savedmodel_fixture("half_plus_two_tf2/saved_model.pb"), "name=saved_model.pb");
  ASSERT_EQ(validated.status, 200u) << validated.body;
  boost::json::object body{{"config", nullptr}, {"index", nullptr},
                           {"files", {{"saved_model.pb", validated.json()}}},
                           {"other_files", {"fingerprint.pb", "variables/variables.index"}}};
  const auto ok = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  EXPECT_EQ(ok.status, 200u) << ok.body;
  EXPECT_EQ(rule_ids(ok.json()), std::vector<std::string>{});
  EXPECT_EQ(str(ok.json().at("summary").at("weights_format")), "savedmodel");
  using namespace tgtest::wire;
  const std::string leak = field_varint(1, 1) + field_len(2, field_len(2, field_len(1, field_len(1, "r") + field_len(2, "ReadFile"))));
  const auto refused = upload(server.port(), leak, "name=saved_model.pb");
  ASSERT_EQ(refused.status, 422u) << refused.body;
  body["files"] = boost::json::object{{"saved_model.pb", refused.json()}};
  const auto res = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  EXPECT_EQ(res.status, 422u) << res.body;
  EXPECT_EQ(rule_ids(res.json()), std::vector<std::string>{"MD.invalid-file"});
}

// An OpenVINO model as the hub has it: model.xml's report and its .bin's, checked as a pair (the
// .bin is the xml's, no file of its own); a Const past the .bin's end is the directory's OV.const.
TEST(ServiceCheckModel, OpenVinoXmlAndBinAreOnePair) {
  TestServer server;
  const auto data = [](const std::string& name) { return read_bytes(std::string(TG_SOURCE_DIR) + "/tests/data/openvino/" + name); };
  const auto xml = upload(server.port(), data("model.xml"), "name=openvino_model.xml");
  ASSERT_EQ(xml.status, 200u) << xml.body;
  ASSERT_EQ(str(xml.json().at("format")), "openvino");
  const auto bin = upload(server.port(), data("model.bin"), "name=openvino_model.bin");
  const auto short_bin = upload(server.port(), data("past_bin.bin"), "name=openvino_model.bin");
  boost::json::object body{{"config", nullptr}, {"index", nullptr},
                           {"files", {{"openvino_model.xml", xml.json()}, {"openvino_model.bin", bin.json()}}}};
  const auto ok = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  EXPECT_EQ(ok.status, 200u) << ok.body;
  EXPECT_EQ(rule_ids(ok.json()), std::vector<std::string>{});
  EXPECT_EQ(str(ok.json().at("summary").at("weights_format")), "openvino");
  EXPECT_EQ(ok.json().at("summary").at("parameters"), 15);  // its Const layers: 3x4 and 3
  body["files"].as_object()["openvino_model.bin"] = short_bin.json();
  const auto past = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  EXPECT_EQ(past.status, 422u) << past.body;
  EXPECT_EQ(rule_ids(past.json()), (std::vector<std::string>{"OV.const", "MD.invalid-file"})) << past.body;
  body["files"].as_object().erase("openvino_model.bin");
  const auto missing = request(server.port(), "POST", "/v1/check-model", boost::json::serialize(body));
  EXPECT_EQ(rule_ids(missing.json()), (std::vector<std::string>{"OV.weights-missing", "MD.invalid-file"})) << missing.body;
}
