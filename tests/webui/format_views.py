"""The web page's views of formats other than safetensors and GGUF, in the browser: a pickle's
and an LFS pointer's names, an ONNX model's op chart and graph values, a SavedModel's ops, and
what loading a file would run. Mixed into test_webui.WebPage, whose helpers and server they use.
"""
import os

# Files the real writers made, committed beside the tests (tests/data/).
DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


class FormatViews:
    def test_14_pickle_and_lfs_pointer(self):
        # Files other than safetensors and GGUF get their own names and rules.
        self.upload(self.files["pickle"])
        banner = self.banner("invalid")
        self.assertIn("Invalid pickle file", banner.text)
        self.assertIn("PK.dangerous-global", self.rule_ids())
        self.assertEqual(self.b.find_all(".inventory-panel"), [])  # no tensors: no empty table
        self.shot("14-pickle")
        self.upload(self.files["lfs"])
        # The pickle's banner (also "invalid") stays until the new report replaces it.
        self.b.wait(lambda d: "pointer" in self.b.js("return document.querySelector('.result .banner')?.textContent ?? ''"),
                    "the LFS pointer's banner")
        self.assertIn("Invalid Git LFS pointer file", self.banner("invalid").text)

    def test_15_onnx_model(self):
        # An ONNX model's summary: its cards, its nodes by op type as bars (largest first, each
        # scaled to the largest), its graph's inputs and outputs, its initializers.
        self.upload(self.files["onnx"])
        self.assertIn("Valid ONNX file", self.banner("valid").text)
        self.assertEqual(self.rule_ids(), [])
        cards = {c.get_attribute("data-field"): c.text for c in self.b.find_all(".card")}
        self.assertIn("tensorgate-browser-test", cards["producer_name"])
        self.assertIn("ai.onnx 13", cards["opsets"])
        self.assertIn("10", cards["nodes"])
        self.assertIn("7", cards["initializer_count"])
        ops = ["Add", "MatMul", "Relu", "Reshape", "Softmax"]  # by count, then by name
        rows = self.b.find_all(".ops-panel svg.chart .chart-row")
        self.assertEqual([r.get_attribute("data-op") for r in rows], ops)
        self.assertEqual(self.text_of(".ops-panel svg.chart .type-label"), ops)
        widths = [float(w) for w in self.text_of_attr(".ops-panel svg.chart rect.bar-ops", "width")]
        self.assertEqual(widths, [300.0, 300.0, 200.0, 100.0, 100.0])
        self.assertEqual(self.text_of(".ops-panel svg.chart .value")[0], "3 · 30%")
        self.assertEqual(len(self.b.find_all(".values-panel tbody tr")), 2)
        self.assertIn("[batch, 8]", self.b.find('.values-panel tr[data-role="input"]').text)
        self.assertIn("Rows 1–7 of 7", self.b.find(".inventory-status").text)
        self.assertEqual(sorted(e.get_attribute("data-type") for e in self.b.find_all(".chart-panel:not(.ops-panel) svg.chart .chart-row")),
                         ["FLOAT", "INT64"])
        self.shot("15-onnx")

    def test_16_savedmodel(self):
        # A SavedModel's graph: its ops as the same bars, its other facts listed.
        self.upload(self.files["savedmodel"])
        self.assertIn("Valid TensorFlow SavedModel file", self.banner("valid").text)
        self.assertEqual(self.rule_ids(), [])
        rows = self.b.find_all(".ops-panel svg.chart .chart-row")
        self.assertEqual(rows[0].get_attribute("data-op"), "Const")  # the most frequent op first
        self.assertEqual(len(rows), len(set(r.get_attribute("data-op") for r in rows)))
        widths = [float(w) for w in self.text_of_attr(".ops-panel svg.chart rect.bar-ops", "width")]
        self.assertEqual(widths[0], 300.0)
        self.assertEqual(widths, sorted(widths, reverse=True))
        self.shot("16-savedmodel")

    def test_17_what_it_would_run(self):
        # What loading would run, each with its verdict, the dangerous first: a pickle's
        # globals, a Keras config's classes, a TorchScript archive's classes and code files.
        self.upload(self.files["pickle"])
        self.banner("invalid")
        rows = self.b.find_all(".execution-panel tbody tr")
        self.assertEqual(rows[0].get_attribute("data-verdict"), "dangerous")
        self.assertIn("system", rows[0].text)
        self.shot("17-execution-pickle")
        self.upload(os.path.join(DATA_DIR, "keras", "nested_lambda.keras"))
        self.b.wait(lambda d: "Lambda" in self.b.js("return document.querySelector('.execution-panel')?.textContent ?? ''"),
                    "the Keras archive's classes")
        self.assertIn("KR.lambda", self.rule_ids())
        verdicts = {r.find_element("css selector", "code").text: r.get_attribute("data-verdict")
                    for r in self.b.find_all(".execution-panel tbody tr")}
        self.assertEqual(verdicts["Lambda"], "dangerous")
        self.assertEqual(verdicts["function"], "dangerous")  # the Lambda's bytecode
        self.assertEqual(verdicts["TimeDistributed"], "keras")
        self.assertEqual(self.text_of_attr(".execution-panel tbody tr", "data-verdict")[0], "dangerous")
        self.shot("17-execution-keras")
        self.upload(os.path.join(DATA_DIR, "torchscript", "import_os.pt"))
        self.b.wait(lambda d: "code file" in self.b.js("return document.querySelector('.execution-panel')?.textContent ?? ''"),
                    "the TorchScript archive's code files")
        # The service may answer before the archive's pickles (its scripted classes) arrive: the
        # code file that imports os is the verdict.
        self.assertEqual(self.text_of_attr(".execution-panel tbody tr", "data-verdict")[0], "dangerous")
        self.assertEqual(self.b.find('.execution-panel tr[data-kind="code file"]').get_attribute("data-verdict"), "dangerous")
        self.shot("17-execution-torchscript")
        self.upload(self.files["onnx"])
        self.assertIn("Valid ONNX file", self.banner("valid").text)
        self.assertEqual(self.b.find_all(".execution-panel"), [])  # ONNX's own ops run nothing of the file's

    def test_18_weight_files_of_other_layouts(self):
        # Legacy GGML, CTranslate2, Flax, OpenVINO IR and TFLite files: their own names, and their
        # weights (tensors, variables, arrays, Const layers) in the tensor inventory.
        cases = [("ggml/whisper_tiny.bin", "Valid legacy GGML file", 50),
                 ("ctranslate2/whisper_v6.bin", "Valid CTranslate2 file", 8),
                 ("flax/flax_model.msgpack", "Valid Flax msgpack file", 39),
                 ("openvino/model.xml", "Valid OpenVINO IR file", 2),
                 ("tflite/model.tflite", "Valid TFLite file", 7)]
        for name, banner, rows in cases:
            self.upload(os.path.join(DATA_DIR, name))
            self.b.wait(lambda d, b=banner: b in self.b.js("return document.querySelector('.result .banner')?.textContent ?? ''"),
                        "the banner of " + name)
            self.assertEqual(self.rule_ids(), [], name)
            self.assertIn(f" of {rows}", self.b.find(".inventory-status").text, name)
            facts = self.b.js("return [...document.querySelectorAll('.result .other-facts tbody th code')].map((e) => e.textContent)")
            for listed in ("variables", "arrays", "const_layers"):
                self.assertNotIn(listed, facts, name)  # the list is the inventory, not a fact
            labels = self.b.js("return [...document.querySelectorAll('.result .card .card-label')].map((e) => e.textContent)")
            self.assertNotIn("GGUF version", labels, name)  # another format's version is its own
            self.assertNotIn("ONNX IR version", labels, name)
            if name.startswith("tflite"):  # its metadata is a list of names: a fact, not a key/value map
                self.assertEqual(self.b.find_all(".metadata-panel"), [])
                self.assertIn("metadata", facts)
            self.shot("18-" + name.split("/")[0])
