// One file's result for people: the banner (valid, invalid, not judged), the file's facts and
// SHA-256, the summary cards, the findings, what loading it would run, the chart, the tensor inventory, the metadata, and
// the report to download or copy as SARIF.
import {h} from './dom.js';
import * as fmt from './format.js';
import {findingsPanel} from './findings.js';
import {dtypeChart} from './chart.js';
import {inventoryPanel} from './inventory.js';
import {metadataPanel} from './metadata.js';
import {cardsSection, typesOf, isMap} from './summary.js';
import {opsChart, graphValues, initializerTensors} from './onnx.js';
import {executionPanel} from './execution.js';
import {sarifText, downloadName, download, copy} from './sarif.js';

// The weights a format lists under its own name (its tensors are read as the inventory reads
// tensors): a CTranslate2 model's variables, a Flax checkpoint's arrays, OpenVINO's Const layers.
const WEIGHT_LISTS = {ctranslate2: 'variables', flax: 'arrays', openvino: 'const_layers'};
function weightList(format, summary) {
  const list = summary[WEIGHT_LISTS[format]];
  return Array.isArray(list) ? list.filter((t) => t && typeof t === 'object') : [];
}

// The report's format ids (core/include/tensorgate/report.hpp, format_name) as a person reads
// them, before "file" ("Invalid pickle file", "Valid Git LFS pointer file").
const FORMAT_NAMES = {
  safetensors: 'safetensors', gguf: 'GGUF', pickle: 'pickle', zip: 'zip', npy: 'NumPy .npy', tar: 'tar', onnx: 'ONNX',
  savedmodel: 'TensorFlow SavedModel', hdf5: 'HDF5', ggml: 'legacy GGML', openvino: 'OpenVINO IR',
  ctranslate2: 'CTranslate2', flax: 'Flax msgpack', tflite: 'TFLite',
  'lfs-pointer': 'Git LFS pointer', empty: 'empty', unknown: 'unrecognised',
  'model-directory': 'model repository',
};

export function formatName(format) {
  return FORMAT_NAMES[format] || (format ? String(format) : 'file');
}

function errorsOf(report) {
  return (report.findings || []).filter((f) => f.severity === 'error').length;
}

// The verdict line and what qualifies it. `sent`: bytes the browser had sent.
function verdictBanner(report, {size, actions}) {
  const valid = report.valid === true;
  const kind = report.aborted ? 'aborted' : valid ? 'valid' : 'invalid';
  const what = formatName(report.format);
  const title = kind === 'aborted' ? 'Not judged: a limit of this service stopped the validation'
    : valid ? `Valid ${what} file` : `Invalid ${what} file`;
  const facts = [];
  if (valid && report.canonical === true) facts.push(h('span.badge.good', {title: 'byte for byte what the canonical writer writes'}, 'canonical'));
  if (valid && report.canonical === false) facts.push(h('span.badge', {title: 'valid, but not byte for byte what the canonical writer writes'}, 'not canonical'));
  const errors = errorsOf(report);
  if (!valid && errors) facts.push(h('span.badge.bad', null, fmt.plural(errors, 'error')));
  const warnings = (report.findings || []).filter((f) => f.severity === 'warning').length;
  if (warnings) facts.push(h('span.badge.warn', null, fmt.plural(warnings, 'warning')));
  const lines = [];
  if (report.complete === false) {
    lines.push(h('p.early', null,
      `The verdict came after ${fmt.int(report.bytes_received)} of ${fmt.int(size)} bytes (${fmt.percent(report.bytes_received, size)}): `,
      'the header already breaks the format, so the service answered at once and stopped reading, and the browser stopped sending.'));
  }
  if (report.aborted) lines.push(h('p', null, report.aborted.message, ' ', h('code', null, report.aborted.limit)));
  return h('div.banner.' + kind, {role: 'status', dataset: {verdict: kind}},
    h('div.banner-icon', {'aria-hidden': 'true'}, kind === 'valid' ? '✓' : kind === 'invalid' ? '✕' : '!'),
    h('div.banner-body', null, h('h2.banner-title', null, title), facts.length ? h('div.badges', null, facts) : null, lines),
    actions);
}

function factsStrip(report, name, size) {
  const sha = report.sha256;
  const shaValue = sha ? h('code.sha', {title: 'SHA-256 of the bytes the service received'}, sha)
    : h('span.muted', null, report.complete === false ? 'not computed: the service stopped reading early' : 'not computed');
  const copyButton = sha ? h('button.ghost.small', {type: 'button'}, 'Copy') : null;
  copyButton?.addEventListener('click', async () => {
    copyButton.textContent = (await copy(sha)) ? 'Copied' : 'Select and copy';
  });
  return h('dl.facts', null,
    h('div', null, h('dt', null, 'File'), h('dd', null, h('span.filename', null, name))),
    h('div', null, h('dt', null, 'Size'), h('dd', null, `${fmt.bytes(size)} · ${fmt.int(size)} bytes`)),
    h('div', null, h('dt', null, 'Format'), h('dd', null, formatName(report.format))),
    h('div.sha-row', null, h('dt', null, 'SHA-256'), h('dd', null, shaValue, copyButton)),
    report.request_id ? h('div', null, h('dt', null, 'Request'), h('dd', null, h('code', null, report.request_id))) : null);
}

// Buttons for the report as the service sent it, and as SARIF.
export function exportActions(name, rawText, sarifFiles, ctx) {
  const note = h('span.action-note', {'aria-live': 'polite'});
  const sarif = () => sarifText(sarifFiles(), ctx.rules, ctx.version);
  return h('div.actions', null,
    h('button.primary', {type: 'button', dataset: {action: 'download-report'}, onclick: () => download(rawText, downloadName(name, '.tensorgate.json'), 'application/json')}, 'Download report'),
    h('button', {type: 'button', dataset: {action: 'download-sarif'}, onclick: () => download(sarif(), downloadName(name, '.sarif'), 'application/sarif+json')}, 'Download SARIF'),
    h('button', {type: 'button', dataset: {action: 'copy-sarif'}, onclick: async () => {
      note.textContent = (await copy(sarif())) ? 'SARIF copied' : 'No clipboard here: use Download SARIF';
    }}, 'Copy as SARIF'),
    note);
}

function panel(title, content, cls) {
  return h('section.panel' + (cls ? '.' + cls : ''), {'aria-label': title}, h('div.panel-head', null, h('h2', null, title)), content);
}

// `answer`: the service's answer ({json, text}); `file`: {name, size}.
export function reportView(answer, file, ctx) {
  const report = answer.json;
  const name = report.name || file.name;
  const actions = exportActions(name, answer.text, () => [{name, report}], ctx);
  const summary = report.summary && typeof report.summary === 'object' ? report.summary : null;
  const parts = [verdictBanner(report, {size: file.size, actions}), factsStrip(report, name, file.size)];
  if (summary) parts.push(cardsSection(summary, WEIGHT_LISTS[report.format] ? [WEIGHT_LISTS[report.format]] : [], report.format));
  parts.push(findingsPanel(report.findings, ctx.rules, {dropped: report.findings_dropped}));
  if (summary) {
    const execution = executionPanel(report);
    if (execution) parts.push(execution);
    const ops = opsChart(summary.ops, summary.ops_not_listed);
    if (ops) parts.push(panel('Nodes by op type', ops, 'chart-panel.ops-panel'));
    const chart = dtypeChart(typesOf(summary));
    if (chart) parts.push(panel(report.format === 'gguf' ? 'Parameters and bytes by ggml type' : 'Parameters and bytes by dtype', chart, 'chart-panel'));
    const values = graphValues(summary);
    if (values) parts.push(panel('Graph inputs and outputs', values, 'values-panel'));
    // A file that lists no tensors (a pickle of plain objects, an empty header) gets no empty table.
    if (Array.isArray(summary.tensors) && summary.tensors.length) parts.push(inventoryPanel(summary.tensors, {dataStartLabel: report.format === 'gguf' ? 'the data section (alignment-padded)' : 'the data section (after the header)'}));
    const weights = weightList(report.format, summary);
    if (weights.length) parts.push(inventoryPanel(weights, {dataStartLabel: report.format === 'openvino' ? 'the .bin file' : 'the file'}));
    const initializers = initializerTensors(summary);
    if (initializers.length) parts.push(inventoryPanel(initializers, {dataStartLabel: 'the file (raw_data; typed and external data have no offset)'}));
    if (isMap(summary.metadata)) parts.push(metadataPanel(summary.metadata));
  } else if (!report.aborted) {
    parts.push(h('p.note', null, 'An invalid file has no summary: its findings say what is wrong and where.'));
  }
  return h('div.report', {dataset: {format: String(report.format ?? '')}}, parts);
}

// An answer that is not a report: a problem (RFC 9457), a cancel, a lost connection.
export function problemView({title, detail, code, status, kind = 'problem'}) {
  return h('div.report', null,
    h('div.banner.' + kind, {role: 'status', dataset: {verdict: kind}},
      h('div.banner-icon', {'aria-hidden': 'true'}, kind === 'cancelled' ? '■' : '!'),
      h('div.banner-body', null, h('h2.banner-title', null, title), detail ? h('p', null, detail) : null,
        code ? h('p.muted', null, `${status ? status + ' · ' : ''}`, h('code', null, code)) : null)));
}

// A problem+json answer or a failure as problemView's fields.
export function describeFailure(result, size) {
  if (result.cancelled) return {kind: 'cancelled', title: 'Cancelled', detail: `Stopped after sending ${fmt.bytes(result.sent)} of ${fmt.bytes(size)}.`};
  if (result.networkError) return {kind: 'problem', title: 'The connection failed', detail: `after ${fmt.bytes(result.sent || 0)} of ${fmt.bytes(size)} were sent. Is the service still running?`};
  const p = result.problem || {};
  const retry = /^\d+$/.test(result.retryAfter || '') ? ` The service asks to try again in ${result.retryAfter} s.` : '';
  return {kind: 'problem', title: p.title || `The service answered ${result.status}`, detail: (p.detail || '') + retry, code: p.code || '', status: result.status};
}
