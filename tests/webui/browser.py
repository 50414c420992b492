"""What the browser test drives: `tensorgate serve` on a free loopback port, and headless
Chromium through chromedriver, with hooks installed before any page script runs.

The hooks record what must never happen (an alert, confirm or prompt; an element or event
handler that a hostile string would create; a CSP violation; an uncaught error or console error)
and the upload progress events the page receives, so the tests can assert on them.
"""
import base64
import json
import os
import shutil
import subprocess
import threading

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    raise SystemExit("the browser test needs python3-selenium (scripts/setup.sh installs it)") from None

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
for _tool in (CHROMIUM, CHROMEDRIVER):
    if not os.access(_tool, os.X_OK):
        raise SystemExit(f"the browser test needs {_tool} (chromium and chromium-driver: scripts/setup.sh installs them)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000", "--force-device-scale-factor=1"]
WAIT_SECONDS = 30  # an upper bound for one state to appear, never a synchronisation by time

HOOKS = r"""
(() => {
  const log = window.__tg = {alerts: [], injected: [], violations: [], errors: [], progress: []};
  for (const name of ['alert', 'confirm', 'prompt', 'print']) {
    window[name] = (...args) => { log.alerts.push(name + '(' + args.join(',') + ')'); };
  }
  document.addEventListener('securitypolicyviolation', (e) => log.violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample));
  window.addEventListener('error', (e) => log.errors.push('error: ' + e.message));
  window.addEventListener('unhandledrejection', (e) => log.errors.push('unhandled rejection: ' + e.reason));
  const consoleError = console.error;
  console.error = (...args) => { log.errors.push('console.error: ' + args.join(' ')); consoleError.apply(console, args); };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    const u = String(url);
    this.upload.addEventListener('progress', (e) => log.progress.push({url: u, loaded: e.loaded, total: e.total}));
    return open.call(this, method, url, ...rest);
  };
  // After the page's own markup is parsed, nothing it adds may be active content or carry an
  // event handler or a javascript: URL: that is what a hostile name put into HTML would make.
  const ACTIVE = new Set(['script', 'img', 'iframe', 'frame', 'object', 'embed', 'base', 'meta', 'link', 'style', 'form', 'video', 'audio', 'image']);
  const inspect = (el) => {
    if (ACTIVE.has(el.localName)) log.injected.push('<' + el.localName + '>');
    for (const a of el.attributes) {
      const url = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc'].includes(a.name.toLowerCase());
      if (/^on/i.test(a.name) || (url && /^\s*javascript:/i.test(a.value))) log.injected.push(el.localName + '[' + a.name + '=' + a.value + ']');
    }
  };
  let parsed = false;
  document.addEventListener('DOMContentLoaded', () => { parsed = true; });
  new MutationObserver((records) => {
    if (!parsed) return;
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        inspect(n);
        for (const el of n.querySelectorAll('*')) inspect(el);
      }
      if (r.type === 'attributes' && r.target.nodeType === 1) inspect(r.target);
    }
  }).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['onerror', 'onload', 'onclick', 'onmouseover', 'href', 'src']});
})();
"""


class TensorgateServer:
    """`tensorgate serve` on an ephemeral loopback port; its JSON log lines are kept."""

    def __init__(self, binary, *args):
        self.proc = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--threads", "2", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.port = None
        ready = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.lines.append(line)
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("event") == "listening":
                    self.port = int(entry["address"].rsplit(":", 1)[1])
                    ready.set()
            ready.set()
        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(WAIT_SECONDS) or self.port is None:
            self.stop()
            raise RuntimeError("tensorgate serve did not start: " + self.proc.stderr.read())
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


class Browser:
    def __init__(self, profile_dir, download_dir):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument("--user-data-dir=" + profile_dir)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_script_timeout(WAIT_SECONDS)
        self.download_dir = download_dir
        self.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": HOOKS})
        self.cdp("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})

    def cdp(self, cmd, params=None):
        return self.driver.execute_cdp_cmd(cmd, params or {})

    def quit(self):
        self.driver.quit()

    def open(self, url):
        self.driver.get(url)
        self.wait(lambda d: self.js("return document.body.dataset.ready") == "true", "the page to load")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    # A condition that reads an element the page replaces meanwhile (a new report's banner)
    # is asked again, as one that finds nothing yet is.
    def wait(self, condition, what, timeout=WAIT_SECONDS):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(condition)
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def wait_for(self, css, what=None):
        return self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, css), what or css)[0]

    def hooks(self):
        return self.js("return window.__tg")

    def browser_log(self):
        return self.driver.get_log("browser")

    def screenshot(self, path):
        """The whole page, however long it is (up to 12,000 px)."""
        metrics = self.cdp("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 12000), "scale": 1}
        shot = self.cdp("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def viewport_screenshot(self, path):
        self.driver.save_screenshot(path)

    def wait_download(self, suffix, before):
        def found(_):
            names = [n for n in os.listdir(self.download_dir) if n.endswith(suffix) and n not in before]
            return names[0] if names else None
        name = self.wait(found, "a download ending in " + suffix)
        return os.path.join(self.download_dir, name)

