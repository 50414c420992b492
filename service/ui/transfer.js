// One upload's progress: a bar, bytes sent of total, the rate over the last seconds, the time
// left, and a cancel button. The same row serves the single-file view and each file of a
// repository.
import {h} from './dom.js';
import * as fmt from './format.js';

// The rate is measured over this window: long enough to smooth the browser's bursts, short
// enough to follow a link that slows down.
const RATE_WINDOW_MS = 3000;

export class Transfer {
  constructor(file, displayName) {
    this.file = file;
    this.total = file.size;
    this.samples = [];
    this.state = 'waiting';
    this.bar = h('div.bar-fill');
    this.track = h('div.bar', {role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(this.total), 'aria-valuenow': '0', 'aria-label': 'upload progress'}, this.bar);
    this.stats = h('span.stats', null, 'waiting');
    this.status = h('span.status.waiting', null, 'Waiting');
    // validate's caller wires it to the upload (main.js validateOne).
    this.cancelButton = h('button.ghost.small', {type: 'button', hidden: true, dataset: {action: 'cancel'}}, 'Cancel');
    this.el = h('div.transfer', {dataset: {state: 'waiting'}},
      h('div.transfer-head', null,
        h('span.transfer-name', {title: displayName}, displayName),
        h('span.transfer-size', null, fmt.bytes(this.total)),
        this.status,
        this.cancelButton),
      this.track,
      this.stats);
  }

  setState(state, label) {
    this.state = state;
    this.el.dataset.state = state;
    this.status.className = 'status ' + state;
    this.status.textContent = label;
    if (state !== 'sending' && state !== 'waiting' && state !== 'deciding') this.cancelButton.hidden = true;
  }

  start() {
    this.started = performance.now();
    this.setState('sending', 'Sending');
    this.stats.textContent = `0 B of ${fmt.bytes(this.total)}`;
  }

  // An upload progress event: bytes sent so far of `total`.
  progress(loaded, total) {
    const now = performance.now();
    this.total = total || this.total;
    this.loaded = loaded;
    this.samples.push([now, loaded]);
    while (this.samples.length > 2 && now - this.samples[0][0] > RATE_WINDOW_MS) this.samples.shift();
    const [t0, b0] = this.samples[0];
    const seconds = (now - t0) / 1000;
    const speed = seconds > 0.05 ? (loaded - b0) / seconds : NaN;
    const left = speed > 0 ? (this.total - loaded) / speed : NaN;
    this.paint(loaded);
    this.stats.textContent = `${fmt.bytes(loaded)} of ${fmt.bytes(this.total)} (${fmt.percent(loaded, this.total)})` +
      ` · ${fmt.rate(speed)} · ${Number.isFinite(left) ? fmt.duration(left) + ' left' : 'measuring'}`;
  }

  paint(loaded) {
    const fraction = this.total ? Math.min(1, Number(loaded) / Number(this.total)) : 1;
    this.bar.style.width = `${(fraction * 100).toFixed(2)}%`;
    this.track.setAttribute('aria-valuenow', String(loaded));
  }

  elapsed() {
    return this.started ? (performance.now() - this.started) / 1000 : 0;
  }

  // The body is out; the service finishes its checks.
  sent() {
    this.paint(this.total);
    this.setState('deciding', 'Waiting for the verdict');
    const seconds = (performance.now() - (this.started || performance.now())) / 1000;
    this.stats.textContent = `${fmt.bytes(this.total)} sent in ${fmt.duration(seconds)}` +
      (seconds > 0.05 ? ` · ${fmt.rate(Number(this.total) / seconds)} on average` : '');
  }

  // The service answered. `early` when it decided before the end of the body.
  finish(kind, label, detail) {
    this.setState(kind, label);
    if (detail) this.stats.textContent = detail;
  }
}
