// A repository (a folder, or several files): each weights file streamed to /v1/validate in
// turn with its own progress, then /v1/check-model with the config, the index and the reports,
// shown together: the cross-file verdict and findings, the files, and any file's own report.
import {checkModel} from './api.js';
import {h, clear} from './dom.js';
import * as fmt from './format.js';
import {Transfer} from './transfer.js';
import {findingsPanel} from './findings.js';
import {dtypeChart} from './chart.js';
import {cardsSection, typesOf} from './summary.js';
import {reportView, problemView, describeFailure, exportActions} from './report.js';

// The files a repository's check validates one by one. Beyond safetensors and GGUF, the other
// model files a repository holds (pickles, zips, NumPy, chat templates) are sent too once the
// service lists a format for them in its OpenAPI description; the content decides its kind.
const WEIGHTS = /\.(safetensors|gguf)$/i;
const MORE_WEIGHTS = /\.(bin|pt|pth|ckpt|pkl|pickle|npz|npy|zip|tar|keras|jinja)$/i;
const FORMATS_OF_TODAY = new Set(['auto', 'safetensors', 'gguf']);

function isWeights(path, formats) {
  if (WEIGHTS.test(path)) return true;
  return (formats || []).some((f) => !FORMATS_OF_TODAY.has(f)) && MORE_WEIGHTS.test(path);
}
// config.json and the index are read whole by the page: at most the service's default
// max-check-model-bytes.
const MAX_JSON_BYTES = 64 * 1024 * 1024;

export function classify(files, formats) {
  const top = files.filter((f) => !f.path.includes('/'));
  const nested = files.length - top.length;
  const config = top.find((f) => f.path === 'config.json') || null;
  const index = top.find((f) => f.path === 'model.safetensors.index.json') ||
    top.find((f) => /\.safetensors\.index\.json$/i.test(f.path)) || null;
  const weights = top.filter((f) => isWeights(f.path, formats)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const others = top.filter((f) => f !== config && f !== index && !weights.includes(f)).map((f) => f.path);
  return {weights, config, index, others, nested};
}

// The document for the request, always as its text (a JSON string): the service checks the
// text exactly as the CLI checks the file, so a duplicate key or a syntax error is the
// directory's MD.config-invalid or SH.index-invalid, never a malformed request.
async function documentText(entry, notes) {
  if (!entry) return 'null';
  if (entry.file.size > MAX_JSON_BYTES) {
    notes.push(`${entry.path} is ${fmt.bytes(entry.file.size)}, more than the page sends (${fmt.bytes(MAX_JSON_BYTES)}); it was left out.`);
    return 'null';
  }
  return JSON.stringify(await entry.file.text());
}

function fileRow(entry, onShow) {
  const transfer = new Transfer(entry.file, entry.path);
  const show = h('button.ghost.small', {type: 'button', hidden: true, dataset: {action: 'show-file'}, onclick: () => onShow(entry)}, 'Show report');
  transfer.el.querySelector('.transfer-head').append(show);
  entry.transfer = transfer;
  entry.showButton = show;
  return transfer.el;
}

function repositoryBanner(answer, {folder, count, actions, skipped}) {
  const report = answer?.json;
  const kind = !report ? 'problem' : report.valid ? 'valid' : 'invalid';
  const title = !report ? 'The repository could not be checked as a whole'
    : report.valid ? 'Consistent model repository' : 'Inconsistent model repository';
  const errors = report ? (report.findings || []).filter((f) => f.severity === 'error').length : 0;
  return h('div.banner.' + kind, {role: 'status', dataset: {verdict: kind, scope: 'repository'}},
    h('div.banner-icon', {'aria-hidden': 'true'}, kind === 'valid' ? '✓' : kind === 'invalid' ? '✕' : '!'),
    h('div.banner-body', null, h('h2.banner-title', null, title),
      h('div.badges', null, folder ? h('span.badge', null, folder) : null, h('span.badge', null, fmt.plural(count, 'weights file')),
        errors ? h('span.badge.bad', null, fmt.plural(errors, 'cross-file error')) : null),
      skipped ? h('p', null, skipped) : null,
      !report && answer?.problem ? h('p', null, answer.problem.detail || answer.problem.title) : null),
    actions);
}

export async function runRepository(got, ctx, {transfers, result, validateOne}) {
  const {weights, config, index, others, nested} = classify(got.files, ctx.formats);
  clear(result);
  clear(transfers).hidden = false;
  const notes = [];
  if (got.truncated) notes.push('The folder holds more files than the page reads (10,000); the rest were left out.');
  if (nested) notes.push(`${fmt.plural(nested, 'file')} in subfolders ${nested === 1 ? 'was' : 'were'} not checked: a model repository's files are at its top.`);
  const detail = h('div.file-detail');
  const showFile = (entry) => {
    detail.replaceChildren(h('h2.detail-title', null, 'File: ', h('span.filename', null, entry.path)),
      entry.report ? reportView(entry.result, {name: entry.path, size: entry.file.size}, ctx) : problemView(describeFailure(entry.result, entry.file.size)));
    detail.scrollIntoView({behavior: 'smooth', block: 'start'});
  };
  const list = h('div.file-list', null, weights.map((w) => fileRow(w, showFile)));
  const head = h('div.repo-head', null,
    h('h2', null, got.folder ? h('span', null, 'Repository ', h('span.filename', null, got.folder)) : 'Repository'),
    h('span.muted', null, `${fmt.plural(weights.length, 'weights file')} · ${fmt.plural(got.files.length, 'file')} in all` +
      (config ? ' · config.json' : '') + (index ? ` · ${index.path}` : '')));
  const cancelAll = h('button.ghost.small', {type: 'button', dataset: {action: 'cancel-all'}}, 'Cancel all');
  transfers.append(head, list, cancelAll);

  let cancelled = false;
  cancelAll.onclick = () => {
    cancelled = true;
    for (const w of weights) if (w.transfer.state === 'sending') w.transfer.cancelButton.click();
  };
  for (const w of weights) {
    if (cancelled) {
      w.transfer.finish('cancelled', 'Skipped', 'not sent');
      continue;
    }
    const {result: r, report} = await validateOne(w.file, w.path, w.transfer);
    w.result = r;
    w.report = report;
    w.showButton.hidden = false;
    if (r.cancelled) cancelled = true;
  }
  cancelAll.remove();

  if (cancelled) {
    result.append(problemView({kind: 'cancelled', title: 'Cancelled', detail: 'The repository was not checked as a whole.'}), detail);
    return;
  }
  const checked = weights.filter((w) => w.report);
  if (checked.length < weights.length) notes.push(`${fmt.plural(weights.length - checked.length, 'file')} got no report and ${weights.length - checked.length === 1 ? 'is' : 'are'} named without one.`);
  const body = '{"config":' + (await documentText(config, notes)) +
    ',"index":' + (await documentText(index, notes)) +
    ',"files":{' + checked.map((w) => JSON.stringify(w.path) + ':' + w.result.text.trim()).join(',') + '}' +
    ',"other_files":' + JSON.stringify(others.concat(weights.filter((w) => !w.report).map((w) => w.path))) + '}';
  const answer = await checkModel(body);
  const report = answer.json && !answer.problem && 'valid' in answer.json ? answer.json : null;
  const sarifFiles = () => [{name: got.folder || 'repository', report}, ...checked.map((w) => ({name: w.path, report: w.report}))];
  const actions = report ? exportActions(got.folder || 'repository', answer.text, sarifFiles, ctx) : null;
  const parts = [repositoryBanner(answer.networkError ? null : answer, {folder: got.folder, count: weights.length, actions, skipped: notes.join(' ')})];
  if (report) {
    parts.push(cardsSection(report.summary));
    parts.push(findingsPanel(report.findings, ctx.rules, {dropped: report.findings_dropped, title: 'Cross-file findings',
      none: 'No cross-file findings: the shards, the index and config.json agree.'}));
    const chart = dtypeChart(typesOf(report.summary));
    if (chart) parts.push(h('section.panel.chart-panel', {'aria-label': 'Parameters by dtype'}, h('div.panel-head', null, h('h2', null, 'Parameters by dtype, all files')), chart));
  } else if (answer.networkError) {
    parts.push(problemView({title: 'The connection failed', detail: 'The service did not answer /v1/check-model.'}));
  }
  parts.push(filesTable(weights, showFile, [config?.path, index?.path, ...others].filter(Boolean)));
  result.append(h('div.report.repository', null, parts), detail);
}

function filesTable(weights, showFile, alsoThere) {
  const rows = weights.map((w) => {
    const r = w.report;
    const verdict = r ? (r.valid ? 'valid' : 'invalid') : 'problem';
    const errors = r ? (r.findings || []).filter((f) => f.severity === 'error').length : 0;
    return h('tr', {dataset: {file: w.path, verdict}},
      h('td', null, h('span.filename', null, w.path)),
      h('td.num', null, fmt.bytes(w.file.size)),
      h('td', null, h('span.verdict.' + verdict, null, r ? (r.valid ? 'valid' : 'invalid') : describeFailure(w.result, w.file.size).title)),
      h('td.num', null, r ? fmt.int(r.summary?.tensor_count ?? (r.summary?.tensors || []).length) : '—'),
      h('td.num', null, r ? fmt.count(r.summary?.parameters) : '—'),
      h('td.num', null, r ? (errors ? fmt.plural(errors, 'error') : fmt.plural((r.findings || []).length, 'finding')) : '—'),
      h('td', null, h('button.ghost.small', {type: 'button', onclick: () => showFile(w)}, 'Show')));
  });
  return h('section.panel', {'aria-label': 'Files'},
    h('div.panel-head', null, h('h2', null, 'Files'), h('span.muted', null, fmt.plural(weights.length, 'weights file'))),
    h('div.table-wrap', null, h('table.files', null,
      h('thead', null, h('tr', null, ['File', 'Size', 'Verdict', 'Tensors', 'Parameters', 'Findings', ''].map((c, i) => h(i && i < 6 && i !== 2 ? 'th.num' : 'th', {scope: 'col'}, c)))),
      h('tbody', null, rows.length ? rows : h('tr', null, h('td.empty', {colspan: '7'}, 'No model file at the top of the folder.'))))),
    alsoThere.length ? h('p.note.also', null, 'Also in the repository: ', alsoThere.map((n, i) => [i ? ', ' : '', h('code', null, n)])) : null);
}
