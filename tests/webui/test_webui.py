#!/usr/bin/env python3
"""The web page (GET /) in a real browser: headless Chromium driven by Selenium, against
`tensorgate serve` on a free loopback port. A person's path end to end: open the page, upload a
valid and an invalid file through the real file input (and by drag and drop), watch the
progress, cancel, get an early verdict, read the findings, scroll a 100,000-tensor inventory,
see hostile names stay text, check a sharded repository, download the report and SARIF.

usage: test_webui.py TENSORGATE OUT_DIR DOCS_DIR
Screenshots of every state are written to OUT_DIR/screenshots/.
"""
import json
import os
import shutil
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402
from browser import Browser, TensorgateServer  # noqa: E402
from format_views import FormatViews  # noqa: E402

TENSORGATE, OUT_DIR, DOCS_DIR = (sys.argv[1:4] + [None, None, None])[:3]
del sys.argv[1:4]

# Chromium logs every 4xx answer to an XMLHttpRequest or fetch as a network error; a 422 from
# /v1/validate or /v1/check-model is a verdict, not a fault of the page (a test that provokes
# another status adds it to self.expected_statuses).
API_ROUTES = ("/v1/validate", "/v1/check-model")


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class WebPage(FormatViews, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = OUT_DIR
        cls.shots = os.path.join(OUT_DIR, "screenshots")
        shutil.rmtree(cls.shots, ignore_errors=True)
        os.makedirs(cls.shots)
        # Cleanups run even when a later step of this setup fails.
        cls.tmp = tempfile.mkdtemp(prefix="tensorgate-webui-")
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)
        cls.files = fixtures.make_all(os.path.join(cls.tmp, "files"))
        cls.downloads = os.path.join(cls.tmp, "downloads")
        os.makedirs(cls.downloads)
        # A body limit between the largest test file and files["too_large"].
        cls.server = TensorgateServer(TENSORGATE, "--max-body-bytes", str(300 << 20))
        cls.addClassCleanup(cls.server.stop)
        # A fresh profile: no cache, no state from an earlier run.
        cls.browser = Browser(os.path.join(cls.tmp, "profile"), cls.downloads)
        cls.addClassCleanup(cls.browser.quit)

    def setUp(self):
        self.started = time.monotonic()
        self.expected_statuses = {"422"}
        self.b = self.browser
        self.b.cdp("Page.setBypassCSP", {"enabled": False})
        self.b.open(self.server.base + "/")

    def tearDown(self):
        # No test leaves an error behind: nothing uncaught, nothing on the console, no hostile
        # string run or turned into markup.
        hooks = self.b.hooks() or {}
        self.assertEqual(hooks.get("alerts"), [], "an alert, confirm or prompt ran")
        self.assertEqual(hooks.get("injected"), [], "active content was added to the page")
        self.assertEqual(hooks.get("violations"), [], "the Content-Security-Policy was violated")
        self.assertEqual(hooks.get("errors"), [], "the page threw or logged an error")
        severe = [e for e in self.b.browser_log() if e["level"] == "SEVERE" and not self.expected(e)]
        self.assertEqual(severe, [], "the browser console has errors")
        print(f"({time.monotonic() - self.started:.1f} s)", end=" ", file=sys.stderr)

    # --- helpers ------------------------------------------------------------------------------

    def expected(self, entry):
        return (entry.get("source") == "network" and any(r in entry["message"] for r in API_ROUTES)
                and any(f"status of {s} " in entry["message"] for s in self.expected_statuses))

    def shot(self, name):
        self.b.screenshot(os.path.join(self.shots, name + ".png"))

    def upload(self, path, input_id="file-input"):
        self.b.js("window.__tg.progress = []")
        self.b.find("#" + input_id).send_keys(path)

    def banner(self, verdict=None, scope=None):
        css = ".result .banner"
        if scope:
            css += f'[data-scope="{scope}"]'
        el = self.b.wait_for(css + (f'[data-verdict="{verdict}"]' if verdict else ""), f"a {verdict or ''} banner")
        return el

    def rule_ids(self, root=".result"):
        return sorted(e.get_attribute("data-rule") for e in self.b.find_all(root + " table.findings tbody tr[data-rule]"))

    def text_of(self, css):
        return self.b.js("return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", css)

    def text_of_attr(self, css, name):
        return self.b.js("return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(arguments[1]))", css, name)

    # --- the service side of the page -----------------------------------------------------------

    def test_00_page_headers(self):
        with urllib.request.urlopen(self.server.base + "/") as r:
            csp = r.headers["Content-Security-Policy"]
            self.assertIn("default-src 'self'", csp)
            self.assertIn("script-src 'self'", csp)
            self.assertNotIn("unsafe-inline", csp)
            self.assertIn("require-trusted-types-for 'script'", csp)
            self.assertEqual(r.headers["X-Content-Type-Options"], "nosniff")
            self.assertEqual(r.headers["Content-Type"], "text/html; charset=utf-8")
            self.assertEqual(r.headers["Cache-Control"], "no-cache")
            etag = r.headers["ETag"]
            html = r.read().decode()
        self.assertNotIn("<script>", html)          # no inline script
        self.assertNotIn("style=", html)            # no inline style
        self.assertNotRegex(html, r"https?://")     # nothing from elsewhere
        req = urllib.request.Request(self.server.base + "/", headers={"If-None-Match": etag})
        with self.assertRaises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req)
        self.assertEqual(e.exception.code, 304)
        with urllib.request.urlopen(self.server.base + "/ui/main.js") as r:
            self.assertEqual(r.headers["Content-Type"], "text/javascript; charset=utf-8")
        # The browser loaded the page under that policy, from this origin only.
        origin = self.b.js("return [...performance.getEntriesByType('resource')].map(e => new URL(e.name).origin)")
        self.assertEqual(set(origin), {self.server.base})
        self.shot("00-start")

    # --- one file -----------------------------------------------------------------------------

    def test_01_valid_file(self):
        size = os.path.getsize(self.files["valid"])
        self.upload(self.files["valid"])
        banner = self.banner("valid")
        self.assertIn("Valid safetensors file", banner.text)
        self.assertIn("canonical", banner.text)
        progress = [p for p in self.b.hooks()["progress"] if p["url"].startswith("/v1/validate")]
        self.assertGreaterEqual(len(progress), 1, "no upload progress event")
        self.assertTrue(all(p["total"] == size for p in progress))
        self.assertEqual(progress[-1]["loaded"], size)
        self.assertTrue(all(a["loaded"] <= b["loaded"] for a, b in zip(progress, progress[1:])))
        self.assertRegex(self.b.find(".transfer .stats").text, r"^[\d.]+ MB checked in .* · 1 finding$")
        self.assertEqual(self.rule_ids(), ["STW.reference-version"])
        self.assertIn("oldest reference version that loads the file", self.b.find("table.findings .rule-title").text)
        cards = {c.get_attribute("data-field"): c.text for c in self.b.find_all(".card")}
        self.assertIn("21", cards["tensor_count"])
        self.assertIn("38,933,504", cards["parameters"])
        self.assertIn("llama", cards["architecture"])
        self.assertEqual(sorted(e.get_attribute("data-type") for e in self.b.find_all("svg.chart .chart-row")), ["BF16", "F32"])
        sha = self.b.find(".facts .sha").text
        self.assertRegex(sha, r"^[0-9a-f]{64}$")
        self.assertEqual(self.b.find(".metadata-panel").text.count("tensorgate browser test"), 1)
        # Sort the inventory by bytes, largest first.
        self.b.find('.inventory-panel .vhead .c-bytes button').click()
        self.b.find('.inventory-panel .vhead .c-bytes button').click()
        first = self.b.wait(lambda d: self.text_of(".vrows .vrow:not([hidden]) .c-name")[:2], "sorted rows")
        self.assertEqual(sorted(first), ["lm_head.weight", "model.embed_tokens.weight"])
        self.shot("01-valid")
        self.b.js("window.scrollTo(0, 0)")
        self.b.viewport_screenshot(os.path.join(self.shots, "01-valid-viewport.png"))

    def test_02_invalid_file(self):
        self.upload(self.files["invalid"])
        banner = self.banner("invalid")
        self.assertIn("Invalid safetensors file", banner.text)
        self.assertIn("4 errors", banner.text)
        self.assertEqual(self.rule_ids(), ["ST4.dtype", "ST4.size-mismatch", "ST5.gap", "ST5.overlap"])
        dtype_row = self.b.find('table.findings tr[data-rule="ST4.dtype"]')
        self.assertIn('unknown dtype "F3X"', dtype_row.text)
        self.assertIn("928", dtype_row.text)
        self.assertIn("0x3a0", dtype_row.text)  # the offset in hex too
        self.assertIn("model.layers.0.mlp.up_proj.weight", dtype_row.text)
        # Filter by text, then by severity.
        search = self.b.find(".findings-panel input.search")
        search.send_keys("ST5")
        self.b.wait(lambda d: self.rule_ids() == ["ST5.gap", "ST5.overlap"], "the filter to apply")
        search.clear()
        search.send_keys(" ")  # clear() sends no input event; a space does, and is trimmed
        self.b.wait(lambda d: len(self.rule_ids()) == 4, "the filter to clear")
        # Sort by offset, descending.
        offset_head = self.b.find("table.findings thead th:nth-child(4) button")
        offset_head.click()
        offset_head = self.b.find("table.findings thead th:nth-child(4) button")
        offset_head.click()
        order = [e.get_attribute("data-rule") for e in self.b.find_all("table.findings tbody tr[data-rule]")]
        self.assertEqual(order, ["ST5.gap", "ST5.overlap", "ST4.dtype", "ST4.size-mismatch"])
        self.shot("02-invalid")
        self.b.viewport_screenshot(os.path.join(self.shots, "02-invalid-viewport.png"))

    def test_03_early_verdict(self):
        size = os.path.getsize(self.files["early"])
        self.upload(self.files["early"])
        banner = self.banner("invalid")
        early = banner.find_element("css selector", ".early").text
        self.assertIn("The verdict came after", early)
        received = int(early.split("after ")[1].split(" of")[0].replace(",", ""))
        self.assertLess(received, size // 4)
        self.assertIn(f"{size:,}", early)
        self.assertEqual(self.rule_ids(), ["ST4.dtype"])
        self.assertEqual(self.b.find(".transfer").get_attribute("data-early"), "true")
        self.assertIn("not computed", self.b.find(".facts .sha-row").text)
        self.shot("03-early-verdict")

    def test_04_progress_and_cancel(self):
        # A slow link, so the upload is still going when the test looks and cancels.
        self.b.cdp("Network.enable")
        self.b.cdp("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                        "downloadThroughput": -1, "uploadThroughput": 8 * 1024 * 1024})
        try:
            self.upload(self.files["valid"])
            self.b.wait(lambda d: len(self.b.hooks()["progress"]) >= 2 and "MB/s" in self.b.find(".transfer .stats").text,
                        "progress with a rate")
            stats = self.b.find(".transfer .stats").text
            self.assertRegex(stats, r"^[\d.]+ [kM]?B of [\d.]+ MB \(\d+(\.\d+)?%\) · [\d.]+ [kMG]B/s · (.* left|measuring)$")
            self.assertEqual(self.b.find(".transfer").get_attribute("data-state"), "sending")
            self.b.viewport_screenshot(os.path.join(self.shots, "04-progress.png"))
            self.b.find('.transfer button[data-action="cancel"]').click()
            banner = self.banner("cancelled")
            self.assertIn("Stopped after sending", banner.text)
        finally:
            self.b.cdp("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                            "downloadThroughput": -1, "uploadThroughput": -1})
            self.b.cdp("Network.disable")
        self.shot("04-cancelled")

    def test_05_drag_and_drop(self):
        # A real File from disk, dropped on the zone with a DataTransfer, as a desktop drop does.
        self.b.js("""const i = document.createElement('input'); i.type = 'file'; i.id = 'test-drop-source';
                     document.body.append(i);""")
        self.b.find("#test-drop-source").send_keys(self.files["invalid"])
        self.b.js("""const file = document.getElementById('test-drop-source').files[0];
                     const dt = new DataTransfer(); dt.items.add(file);
                     const zone = document.getElementById('dropzone');
                     for (const type of ['dragenter', 'dragover', 'drop'])
                       zone.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));""")
        self.banner("invalid")
        self.assertEqual(len(self.rule_ids()), 4)
        self.assertIn("broken.safetensors", self.b.find(".facts .filename").text)

    def test_06_hundred_thousand_tensors(self):
        self.upload(self.files["many"])
        self.banner("valid")
        status = self.b.wait(lambda d: "of 100,000" in self.b.find(".inventory-status").text and self.b.find(".inventory-status").text, "the inventory")
        self.assertRegex(status, r"^Rows 1–\d+ of 100,000$")
        rendered = len(self.b.find_all(".vrows .vrow"))
        self.assertLess(rendered, 60, "the inventory renders only what is in view")
        # Scroll to the end, then to the middle: the rows follow.
        self.b.js("const s = document.querySelector('.vscroll'); s.scrollTop = s.scrollHeight;")
        self.b.wait(lambda d: "99999" in [e.get_attribute("data-index") for e in self.b.find_all(".vrows .vrow:not([hidden])")], "the last row")
        self.assertIn("of 100,000", self.b.find(".inventory-status").text)
        last_names = self.text_of(".vrows .vrow:not([hidden]) .c-name")
        self.assertEqual(last_names[-1], fixtures.canonical_order(fixtures.hundred_thousand())[-1][0])
        self.b.js("const s = document.querySelector('.vscroll'); s.scrollTop = s.scrollHeight / 2;")
        self.b.wait(lambda d: self.b.find(".inventory-status").text.startswith("Rows 5"), "rows from the middle")
        self.assertEqual(len(self.b.find_all(".vrows .vrow")), rendered)
        # Search: one expert of ten.
        search = self.b.find(".inventory-panel input.search")
        search.send_keys("experts.7.")
        self.b.wait(lambda d: "(filtered from 100,000)" in self.b.find(".inventory-status").text, "the search")
        self.assertIn("of 10,000 (filtered from 100,000)", self.b.find(".inventory-status").text)
        names = self.text_of(".vrows .vrow:not([hidden]) .c-name")
        self.assertTrue(names and all(".experts.7." in n for n in names))
        self.b.find(".inventory-panel").location_once_scrolled_into_view
        self.shot("06-hundred-thousand")

    def test_07_hostile_content_stays_text(self):
        # Without the CSP's help: the page alone must keep hostile strings out of markup.
        self.b.cdp("Page.setBypassCSP", {"enabled": True})
        self.b.open(self.server.base + "/")
        self.upload(self.files["hostile"])
        self.banner("valid")
        names = self.text_of(".vrows .vrow:not([hidden]) .c-name")
        rendered = "\n".join(names)
        self.assertIn("<img src=x onerror=alert(1)>.0", rendered)
        self.assertIn("</script><script>alert(2)</script>.1", rendered)
        self.assertIn("javascript:alert(3).2", rendered)
        self.assertIn("evilRLOgnp.exe.3", rendered)          # the override shown, not obeyed
        self.assertIn("ESC[31mredESC[0m.4", rendered)         # the escape shown, not run
        metadata = self.b.find(".metadata-panel").text
        for s in ["<img src=x onerror=alert(1)>", "</script><script>alert(2)</script>", "javascript:alert(3)"]:
            self.assertIn(s, metadata)
        self.assertEqual(self.b.js("return document.querySelectorAll('.metadata-panel img, .result script, .result a[href]').length"), 0)
        self.assertIn("STW.name-control", self.rule_ids())
        self.shot("07-hostile")
        # The same strings in an invalid file reach the findings' messages and tensor column.
        self.upload(self.files["hostile_invalid"])
        self.banner("invalid")
        messages = "\n".join(self.text_of("table.findings td.message"))
        self.assertIn('unknown dtype "</script><script>alert(2)</script>"', messages)
        tensors = "\n".join(self.text_of("table.findings td.tensor"))
        self.assertIn("<img src=x onerror=alert(1)>.0", tensors)
        self.assertEqual(self.b.hooks()["alerts"], [])
        self.shot("07-hostile-invalid")

    # --- a repository -------------------------------------------------------------------------

    def test_08_repository(self):
        repo = self.files["repo"]
        self.upload(repo, input_id="folder-input")
        banner = self.banner("valid", scope="repository")
        self.assertIn("Consistent model repository", banner.text)
        states = [e.get_attribute("data-state") for e in self.b.find_all(".transfers .transfer")]
        self.assertEqual(states, ["valid", "valid"])
        uploads = {p["url"].split("name=")[1].split("&")[0] for p in self.b.hooks()["progress"]}
        self.assertEqual(uploads, {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"})
        rows = {e.get_attribute("data-file"): e.get_attribute("data-verdict") for e in self.b.find_all("table.files tbody tr")}
        self.assertEqual(rows, {"model-00001-of-00002.safetensors": "valid", "model-00002-of-00002.safetensors": "valid"})
        cards = {c.get_attribute("data-field"): c.text for c in self.b.find_all(".report.repository .card")}
        self.assertIn("2", cards["shard_count"])
        self.assertIn("llama", cards["architecture"])
        self.shot("08-repository")
        # One file's own report, below.
        self.b.find('table.files tr[data-file="model-00002-of-00002.safetensors"] button').click()
        detail = self.b.wait_for(".file-detail .banner", "the file's report")
        self.assertIn("Valid safetensors file", detail.text)

    def test_09_repository_inconsistent(self):
        self.upload(self.files["repo_broken"], input_id="folder-input")
        banner = self.banner("invalid", scope="repository")
        self.assertIn("Inconsistent model repository", banner.text)
        self.assertEqual(self.rule_ids(".report.repository"), ["SH.total-size", "SH.wrong-shard"])
        self.assertIn("the shard the index names", self.b.find(".report.repository table.findings").text)
        self.shot("09-repository-inconsistent")

    # --- what the page gives back -------------------------------------------------------------

    def test_10_download_report_and_sarif(self):
        import jsonschema
        self.upload(self.files["invalid"])
        self.banner("invalid")
        before = set(os.listdir(self.downloads))
        self.b.find('button[data-action="download-report"]').click()
        report = load_json(self.b.wait_download(".tensorgate.json", before))
        self.assertEqual(report["schema"], "tensorgate.validation/1")
        self.assertEqual(sorted(f["rule"] for f in report["findings"]), ["ST4.dtype", "ST4.size-mismatch", "ST5.gap", "ST5.overlap"])
        before = set(os.listdir(self.downloads))
        self.b.find('button[data-action="download-sarif"]').click()
        sarif = load_json(self.b.wait_download(".sarif", before))
        schema = load_json(os.path.join(DOCS_DIR, "sarif-2.1.0-subset.schema.json"))
        jsonschema.validate(sarif, schema)
        results = sarif["runs"][0]["results"]
        self.assertEqual(sorted(r["ruleId"] for r in results), ["ST4.dtype", "ST4.size-mismatch", "ST5.gap", "ST5.overlap"])
        rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        for r in results:
            self.assertEqual(rules[r["ruleIndex"]]["id"], r["ruleId"])
        self.assertEqual({r["locations"][0]["physicalLocation"]["region"]["byteOffset"] for r in results}, {433, 928, 2628, 2884})
        # Copy as SARIF: the same document on the clipboard.
        self.b.cdp("Browser.grantPermissions", {"origin": self.server.base,
                                                "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.b.find('button[data-action="copy-sarif"]').click()
        self.b.wait(lambda d: self.b.find(".actions .action-note").text, "the copy to finish")
        self.assertEqual(self.b.find(".actions .action-note").text, "SARIF copied")
        copied = self.b.driver.execute_async_script("navigator.clipboard.readText().then(arguments[arguments.length - 1])")
        self.assertEqual(json.loads(copied), sarif)

    # --- other formats, other answers, what the page does not know --------------------------

    def test_11_gguf(self):
        self.upload(self.files["gguf"])
        banner = self.banner("valid")
        self.assertIn("Valid GGUF file", banner.text)
        self.assertEqual(self.rule_ids(), ["GGW.llama-cpp"])
        cards = {c.get_attribute("data-field"): c.text for c in self.b.find_all(".card")}
        self.assertIn("4,096", cards["context_length"])
        self.assertIn("32", cards["vocab_size"])
        self.assertIn("Q4_K_M", cards["file_type_name"])
        self.assertIn("Q4_K 56%", cards["types"])  # the quantisation mix, by bytes
        self.assertEqual(sorted(e.get_attribute("data-type") for e in self.b.find_all("svg.chart .chart-row")), ["F32", "Q4_K", "Q6_K"])
        self.assertIn("by ggml type", self.b.find(".chart-panel h2").text)
        self.assertIn("Rows 1–6 of 6", self.b.find(".inventory-status").text)
        self.shot("11-gguf")
        # The same page in the dark.
        self.b.cdp("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            self.shot("11-gguf-dark")
        finally:
            self.b.cdp("Emulation.setEmulatedMedia", {"features": []})

    def test_12_service_refuses(self):
        self.expected_statuses.add("413")
        self.upload(self.files["too_large"])
        banner = self.banner("problem")
        self.assertIn("The body is larger than this service accepts", banner.text)
        self.assertIn("body-too-large", banner.text)
        self.assertIn(f"the limit is {300 << 20} bytes", banner.text)
        self.assertEqual(self.b.find(".transfer").get_attribute("data-state"), "problem")
        self.shot("12-refused")

    def test_13_unknown_rules_and_fields(self):
        # A newer service or a new format: rule ids, severities and summary fields this page
        # has never seen still render, as text.
        self.b.driver.execute_async_script("""
          const done = arguments[arguments.length - 1];
          (async () => {
            const {reportView} = await import('/ui/report.js');
            const {loadRules} = await import('/ui/api.js');
            const report = {schema: 'tensorgate.validation/1', format: 'pickle', valid: false, canonical: null, bytes: 10,
              findings: [{rule: 'ZZ9.brand-new', severity: 'critical', message: 'something new', offset: 12, tensor: null},
                         {rule: 'ST4.dtype', severity: 'error', message: 'known', offset: 3, tensor: 't'}],
              findings_dropped: 5, aborted: null, complete: true, sha256: null,
              summary: {opcodes: 12, globals: ['os.system', '<b>x</b>'], nested: {depth: 3}, tensor_count: 0}};
            document.getElementById('result').replaceChildren(
              reportView({json: report, text: JSON.stringify(report)}, {name: 'model.pkl', size: 10}, {rules: await loadRules(), version: ''}));
            done();
          })();""")
        banner = self.banner("invalid")
        self.assertIn("Invalid pickle file", banner.text)
        row = self.b.find('table.findings tr[data-rule="ZZ9.brand-new"]')
        self.assertIn("not in this service\u2019s catalogue", row.text)
        self.assertIn("critical", row.text.lower())
        self.assertIn("unknown or malformed dtype", self.b.find('table.findings tr[data-rule="ST4.dtype"]').text)
        self.assertIn("5 more findings were counted but not listed", self.b.find(".findings-panel").text)
        self.b.find(".other-facts summary").click()
        facts = self.b.find(".other-facts").text
        for s in ["opcodes", "12", "globals", '"<b>x</b>"', "nested", '"depth":3']:
            self.assertIn(s, facts)


if __name__ == "__main__":
    if not (TENSORGATE and OUT_DIR and DOCS_DIR):
        sys.exit(__doc__)
    unittest.main(verbosity=2)
