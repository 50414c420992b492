// The page: load the catalogue, take files in, stream one to /v1/validate or a repository's to
// /v1/validate and then /v1/check-model, and show the verdicts.
import {loadRules, loadFormats, validate} from './api.js';
import {h, clear} from './dom.js';
import * as fmt from './format.js';
import {setupIntake} from './intake.js';
import {Transfer} from './transfer.js';
import {reportView, problemView, describeFailure} from './report.js';
import {runRepository} from './repository.js';

const $ = (id) => document.getElementById(id);
const ctx = {rules: new Map(), version: '', format: 'auto', formats: ['auto']};

// The service takes names of at most max-name-bytes (1024 by default) UTF-8 bytes.
const MAX_NAME_BYTES = 1000;
export function uploadName(path) {
  let name = String(path);
  const enc = new TextEncoder();
  while (enc.encode(name).length > MAX_NAME_BYTES) name = name.slice(0, Math.floor(name.length * 0.9));
  return name;
}

function setBusy(busy) {
  document.body.dataset.busy = busy ? 'true' : 'false';
  $('file-input').disabled = busy;
  $('folder-input').disabled = busy;
  $('format').disabled = busy;
  $('intake').classList.toggle('compact', true);
}

// Streams one file and shows its verdict. Resolves with the answer (the repository view uses
// the same call for each of its files).
export async function validateOne(file, path, transfer) {
  const job = validate(file, {
    name: uploadName(path),
    format: ctx.format,
    onProgress: (loaded, total) => transfer.progress(loaded, total),
    onSent: () => transfer.sent(),
  });
  transfer.cancelButton.onclick = () => job.cancel();
  transfer.cancelButton.hidden = false;
  transfer.start();
  const result = await job.done;
  const report = result.json && typeof result.json === 'object' && 'valid' in result.json && !result.problem ? result.json : null;
  if (report) {
    const early = report.complete === false;
    const verdict = report.valid ? 'valid' : 'invalid';
    transfer.finish(verdict, report.valid ? 'Valid' : 'Invalid',
      early ? `Verdict after ${fmt.int(report.bytes_received)} of ${fmt.int(file.size)} bytes (${fmt.percent(report.bytes_received, file.size)}); the upload stopped at ${fmt.bytes(result.sent)}`
        : `${fmt.bytes(file.size)} checked in ${fmt.duration(transfer.elapsed())} · ${fmt.plural((report.findings || []).length, 'finding')}`);
    transfer.el.dataset.early = early ? 'true' : 'false';
  } else {
    const failure = describeFailure(result, file.size);
    const label = failure.kind === 'cancelled' ? 'Cancelled' : failure.status ? `Refused (${failure.status})` : 'Failed';
    transfer.finish(failure.kind, label, failure.status ? [failure.title, failure.detail].filter(Boolean).join(': ') : failure.detail);
  }
  return {result, report};
}

async function runSingle({file, path}) {
  setBusy(true);
  const transfers = clear($('transfers'));
  const out = clear($('result'));
  transfers.hidden = false;
  const transfer = new Transfer(file, path);
  transfers.append(transfer.el);
  out.append(h('p.waiting', null, 'The verdict appears here as soon as the service has decided: for a broken header, before the upload ends.'));
  const {result, report} = await validateOne(file, path, transfer);
  clear(out).append(report ? reportView(result, {name: path, size: file.size}, ctx) : problemView(describeFailure(result, file.size)));
  setBusy(false);
}

function onFiles(got) {
  if (document.body.dataset.busy === 'true') return;
  if (got.repository) {
    setBusy(true);
    runRepository(got, ctx, {transfers: $('transfers'), result: $('result'), validateOne}).finally(() => setBusy(false));
  } else {
    runSingle(got.files[0]);
  }
}

async function start() {
  const [rules, {formats, version}] = await Promise.all([loadRules(), loadFormats()]);
  ctx.rules = rules;
  ctx.version = version;
  ctx.formats = formats;
  const select = $('format');
  select.replaceChildren(...formats.map((f) => h('option', {value: f}, f === 'auto' ? 'detect' : f)));
  select.addEventListener('change', () => { ctx.format = select.value; });
  if (version) $('version').textContent = `tensorgate ${version}`;
  $('rule-count').textContent = rules.size ? `${fmt.int(rules.size)} rules` : '';
  setupIntake({zone: $('dropzone'), fileInput: $('file-input'), folderInput: $('folder-input'), onFiles});
  document.body.dataset.ready = 'true';
}

start();
