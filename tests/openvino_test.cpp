// OpenVINO IR (core/src/openvino, family OV): model.xml files built from the serializer's layout
// (tests/data/openvino/make_fixtures.py) and inline variations, through format detection as
// `tensorgate check model.xml` sees them, in any chunks; the pair with its .bin through
// check_openvino_weights as the faces call it. Each rule both ways, and the bounds.
#include <gtest/gtest.h>

#include <string>

#include "stream_check.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/validator.hpp"
#include "test_data.hpp"

namespace {

using tensorgate::Limits;
using tensorgate::OpenVinoSummary;
using tensorgate::OpenVinoWeightsFacts;
using tensorgate::Report;
using tgtest::check_detected;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string xml(const std::string& name) { return tgtest::test_data("openvino/" + name + ".xml"); }
std::uint64_t bin_size(const std::string& name) { return tgtest::test_data("openvino/" + name + ".bin").size(); }

const OpenVinoSummary& ov(const Report& r) {
  static const OpenVinoSummary none;
  const OpenVinoSummary* s = r.summary.get<OpenVinoSummary>();
  EXPECT_NE(s, nullptr);
  return s ? *s : none;
}

Report check(const std::string& name, const Limits& limits = {}) { return check_detected(name + ".xml", xml(name), limits); }

// The fixture with its .bin beside it, as the CLI pairs them.
Report paired(const std::string& name) {
  Report r = check(name);
  tensorgate::check_openvino_weights(r, OpenVinoWeightsFacts{OpenVinoWeightsFacts::Kind::regular, bin_size(name), name + ".bin"});
  return r;
}

Report inline_xml(const std::string& text, const Limits& limits = {}) { return check_detected("model.xml", text, limits); }

const std::string kHead = "<?xml version=\"1.0\"?>\n";
std::string param_layer(int id, const std::string& version = "opset1") {
  return "<layer id=\"" + std::to_string(id) + "\" name=\"p\" type=\"Parameter\" version=\"" + version +
         "\"><data shape=\"1\" element_type=\"f32\"/><output><port id=\"0\"><dim>1</dim></port></output></layer>";
}

TEST(OpenVino, BenignModelsPassWithTheirSummary) {
  for (const char* name : {"model", "model_v10"}) {
    SCOPED_TRACE(name);
    const Report r = paired(name);
    EXPECT_EQ(r.format, tensorgate::Format::openvino);
    EXPECT_TRUE(r.valid) << errors_of(r);
    EXPECT_EQ(warnings_of(r), "");
    const OpenVinoSummary& s = ov(r);
    EXPECT_EQ(s.ir_version, std::string(name) == "model" ? 11u : 10u);
    EXPECT_EQ(s.layers, 6u);
    ASSERT_EQ(s.layers_by_opset.size(), 1u);
    EXPECT_EQ(s.layers_by_opset[0], (std::pair<std::string, std::uint64_t>{"opset1", 6}));
    EXPECT_EQ(s.consts, 2u);
    EXPECT_EQ(s.const_bytes, 60u);
    EXPECT_EQ(s.weights_end, 60u);
    EXPECT_EQ(s.element_types, std::vector<std::string>{"f32"});
    EXPECT_TRUE(s.custom_opsets.empty());
    EXPECT_EQ(s.bin_size, std::optional<std::uint64_t>(60));
    ASSERT_EQ(s.const_layers.size(), 2u);
    EXPECT_EQ(s.const_layers[0].name, "weight");
    EXPECT_EQ(s.const_layers[0].shape, (std::vector<std::uint64_t>{3, 4}));
    EXPECT_EQ(s.const_layers[1].offset, 48u);
  }
}

TEST(OpenVino, ExternalEntitiesAndEntityBombsAreRefusedBeforeExpansion) {
  for (const char* name : {"xxe", "billion_laughs", "doctype", "entity_ref"}) {
    SCOPED_TRACE(name);
    const Report r = check(name);
    EXPECT_EQ(r.format, tensorgate::Format::openvino);
    EXPECT_EQ(errors_of(r), "OV.doctype");
    EXPECT_EQ(r.summary.get<OpenVinoSummary>(), nullptr);  // refused before the root was read
  }
  // XML's five predefined entities and character references are text, not entities to refuse.
  const Report r = inline_xml(kHead + "<net name=\"a&amp;b&lt;&gt;&quot;&apos;&#65;\" version=\"11\"><layers>" + param_layer(0) +
                              "</layers><edges/></net>");
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(ov(r).net_name, "a&b<>\"'A");
}

TEST(OpenVino, MalformedXmlWrongRootAndUnknownIrVersionsAreOvXml) {
  EXPECT_EQ(errors_of(inline_xml(kHead + "<net version=\"11\"><layers></net>")), "OV.xml");
  EXPECT_EQ(errors_of(inline_xml(kHead + "<net version=\"11\"><layers>")), "OV.xml");  // ends inside
  EXPECT_EQ(errors_of(inline_xml(kHead + "<net version=\"12\"><layers/></net>")), "OV.xml");
  EXPECT_EQ(errors_of(inline_xml(kHead + "<net><layers/></net>")), "OV.xml");
  EXPECT_EQ(errors_of(inline_xml(kHead + "<net version=\"11\"><layers><layer id=\"x\" type=\"A\" version=\"opset1\"/></layers></net>")),
            "OV.xml");
  EXPECT_TRUE(inline_xml(kHead + "<net version=\"10\"><layers/><edges/></net>").valid);
  EXPECT_TRUE(inline_xml(kHead + "<net version=\"11\"/>").valid);
}

TEST(OpenVino, EdgesMustNameLayersAndPortsOfTheirNet) {
  EXPECT_EQ(errors_of(check("bad_edge")), "OV.xml");
  EXPECT_NE(message_of(check("bad_edge"), "OV.xml").find("no such input port"), std::string::npos);
  const std::string two = param_layer(0) +
                          "<layer id=\"1\" name=\"r\" type=\"Result\" version=\"opset1\"><input><port id=\"0\"/></input></layer>";
  const auto with_edge = [&](const std::string& edge) {
    return inline_xml(kHead + "<net version=\"11\"><layers>" + two + "</layers><edges>" + edge + "</edges></net>");
  };
  EXPECT_TRUE(with_edge("<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/>").valid);
  EXPECT_EQ(errors_of(with_edge("<edge from-layer=\"9\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/>")), "OV.xml");
  EXPECT_EQ(errors_of(with_edge("<edge from-layer=\"0\" from-port=\"1\" to-layer=\"1\" to-port=\"0\"/>")), "OV.xml");
  EXPECT_EQ(errors_of(with_edge("<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\"/>")), "OV.xml");
  // Duplicate layer ids in one net.
  EXPECT_EQ(errors_of(inline_xml(kHead + "<net version=\"11\"><layers>" + param_layer(0) + param_layer(0) + "</layers></net>")),
            "OV.xml");
  // A body is a net of its own: its edges name its own layers, and its ids may repeat the outer ones.
  const std::string loop = "<layer id=\"1\" name=\"ti\" type=\"TensorIterator\" version=\"opset1\"><input><port id=\"0\"/></input>"
                           "<port_map><input external_port_id=\"0\" internal_layer_id=\"0\"/></port_map><body><layers>" +
                           two + "</layers><edges><edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/></edges></body></layer>";
  const Report body = inline_xml(kHead + "<net version=\"11\"><layers>" + param_layer(0) + loop +
                                 "</layers><edges><edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/></edges></net>");
  EXPECT_TRUE(body.valid) << errors_of(body);
  EXPECT_EQ(ov(body).layers, 4u);
}

TEST(OpenVino, BoundsOfDepthAttributesLayersAndSize) {
  EXPECT_EQ(errors_of(check("deep")), "OV.bounds");
  Limits deep;
  deep.openvino.max_depth = 200;
  EXPECT_TRUE(check("deep", deep).valid);
  Limits few;
  few.openvino.max_layers = 5;
  EXPECT_EQ(errors_of(check("model", few)), "OV.bounds");
  few.openvino.max_layers = 6;
  EXPECT_EQ(errors_of(check("model", few)), "");
  Limits attrs;
  attrs.openvino.max_attributes = 3;
  EXPECT_EQ(errors_of(check("model", attrs)), "OV.bounds");
  Limits bytes;
  bytes.openvino.max_attribute_bytes = 8;
  EXPECT_EQ(errors_of(check("model", bytes)), "OV.bounds");
  Limits size;
  size.openvino.max_xml_bytes = 1000;
  EXPECT_EQ(errors_of(check("model", size)), "OV.bounds");
  size.openvino.max_xml_bytes = xml("model").size();
  EXPECT_EQ(errors_of(check("model", size)), "");
  Limits listed;
  listed.openvino.max_listed_layers = 1;
  const Report r = check("model", listed);
  EXPECT_EQ(ov(r).const_layers.size(), 1u);
  EXPECT_EQ(ov(r).const_layers_not_listed, 1u);
  EXPECT_EQ(ov(r).ranges.size(), 2u);  // the pair check still sees every Const
}

TEST(OpenVino, ConstSizeMustMatchItsShapeAndType) {
  EXPECT_EQ(errors_of(paired("size_mismatch")), "OV.const");
  EXPECT_NE(message_of(check("size_mismatch"), "OV.const").find("make 48 bytes"), std::string::npos);
  const auto with_const = [](const std::string& data) {
    return inline_xml(kHead + "<net version=\"11\"><layers><layer id=\"0\" name=\"c\" type=\"Const\" version=\"opset1\"><data " + data +
                      "/><output><port id=\"0\"/></output></layer></layers></net>");
  };
  // Packed types: bits rounded up to whole bytes.
  EXPECT_TRUE(with_const("element_type=\"u4\" shape=\"3\" offset=\"0\" size=\"2\"").valid);
  EXPECT_EQ(errors_of(with_const("element_type=\"u4\" shape=\"3\" offset=\"0\" size=\"3\"")), "OV.const");
  EXPECT_TRUE(with_const("element_type=\"u1\" shape=\"9\" offset=\"0\" size=\"2\"").valid);
  EXPECT_TRUE(with_const("element_type=\"f32\" shape=\"\" offset=\"0\" size=\"4\"").valid);  // a scalar
  EXPECT_TRUE(with_const("element_type=\"string\" shape=\"2\" offset=\"0\" size=\"29\"").valid);
  EXPECT_EQ(errors_of(with_const("element_type=\"f32\" shape=\"2\" offset=\"0\"")), "OV.const");
  EXPECT_EQ(errors_of(with_const("element_type=\"f32\" shape=\"-1\" offset=\"0\" size=\"4\"")), "OV.const");
  EXPECT_EQ(errors_of(with_const("element_type=\"f32\" shape=\"2\" offset=\"18446744073709551615\" size=\"8\"")), "OV.const");
  EXPECT_EQ(errors_of(with_const("element_type=\"f64\" shape=\"4294967296,4294967296\" offset=\"0\" size=\"8\"")), "OV.const");
}

TEST(OpenVino, UnknownElementTypesAreOvUnknown) {
  EXPECT_EQ(errors_of(check("unknown_type")), "OV.unknown");
  EXPECT_EQ(errors_of(check("model")), "");
  for (const char* t : {"bf16", "f8e4m3", "f8e5m2", "nf4", "i4", "u2", "boolean", "f4e2m1"}) {
    SCOPED_TRACE(t);
    const Report r = inline_xml(kHead + "<net version=\"11\"><layers><layer id=\"0\" type=\"Parameter\" version=\"opset1\">"
                                        "<data shape=\"1\" element_type=\"" + t + "\"/></layer></layers></net>");
    EXPECT_TRUE(r.valid) << errors_of(r);
  }
}

TEST(OpenVino, CustomOpsetsAreWarnedAndStandardOnesAreNot) {
  const Report r = paired("custom_opset");
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(warnings_of(r), "OV.custom-opset");
  EXPECT_EQ(ov(r).custom_opsets, std::vector<std::string>{"my_custom_ops"});
  for (const char* v : {"opset1", "opset8", "opset15", "ie_internal_opset"}) {
    SCOPED_TRACE(v);
    EXPECT_EQ(warnings_of(inline_xml(kHead + "<net version=\"11\"><layers>" + param_layer(0, v) + "</layers></net>")), "");
  }
  for (const char* v : {"opset16", "opset0", "opset01", "extension", "custom"}) {
    SCOPED_TRACE(v);
    EXPECT_EQ(warnings_of(inline_xml(kHead + "<net version=\"11\"><layers>" + param_layer(0, v) + "</layers></net>")),
              "OV.custom-opset");
  }
}

TEST(OpenVino, ThePairConstsPastTheBinUnusedBytesAndAMissingBin) {
  EXPECT_EQ(errors_of(paired("past_bin")), "OV.const");
  EXPECT_EQ(warnings_of(paired("unused_bytes")), "OV.unused-bytes");
  EXPECT_TRUE(paired("unused_bytes").valid);
  EXPECT_EQ(warnings_of(paired("model")), "");
  Report missing = check("missing_bin");
  EXPECT_TRUE(missing.valid);
  tensorgate::check_openvino_weights(missing, OpenVinoWeightsFacts{OpenVinoWeightsFacts::Kind::missing, 0, "missing_bin.bin"});
  EXPECT_EQ(errors_of(missing), "OV.weights-missing");
  Report outside = check("model");
  tensorgate::check_openvino_weights(outside, OpenVinoWeightsFacts{OpenVinoWeightsFacts::Kind::outside, 0, "model.bin"});
  EXPECT_EQ(errors_of(outside), "OV.weights-missing");
  // A model without a Const needs no .bin.
  Report none = inline_xml(kHead + "<net version=\"11\"><layers>" + param_layer(0) + "</layers></net>");
  tensorgate::check_openvino_weights(none, OpenVinoWeightsFacts{OpenVinoWeightsFacts::Kind::missing, 0, "model.bin"});
  EXPECT_TRUE(none.valid);
  EXPECT_EQ(tensorgate::openvino_weights_name("openvino_model.xml"), "openvino_model.bin");
  EXPECT_EQ(tensorgate::openvino_weights_name("dir.v2/model"), "dir.v2/model.bin");
}

TEST(OpenVino, ADirectoryListingPairsTheBinWithItsXml) {
  using tensorgate::Format;
  using tensorgate::ListedFile;
  const std::vector<ListedFile> files{{"openvino_model.xml", Format::openvino}, {"openvino_model.bin", Format::unknown},
                                      {"other.bin", Format::unknown}, {"notes.xml", Format::unknown}};
  EXPECT_TRUE(tensorgate::is_openvino_weights("openvino_model.bin", files));
  EXPECT_FALSE(tensorgate::is_openvino_weights("other.bin", files));
  EXPECT_FALSE(tensorgate::is_openvino_weights("notes.bin", files));
  EXPECT_FALSE(tensorgate::is_openvino_weights("openvino_model.xml", files));
}

TEST(OpenVino, DetectionKnowsAnIrByItsRootAndLeavesOtherXmlAlone) {
  EXPECT_EQ(check_detected("m.xml", kHead + "<!-- made by hand -->\n<net version=\"11\"/>").format, tensorgate::Format::openvino);
  EXPECT_EQ(check_detected("m.xml", "\xEF\xBB\xBF<net version=\"11\"/>").format, tensorgate::Format::openvino);
  const Report other = check_detected("pom.xml", kHead + "<project><modelVersion>4.0.0</modelVersion></project>");
  EXPECT_NE(other.format, tensorgate::Format::openvino);
  EXPECT_FALSE(other.valid);
}

}  // namespace
