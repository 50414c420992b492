// What loading the file would run, and the gate's verdict on each: the globals its pickles
// import and call (a checkpoint's data.pkl, a joblib file, an archive's pickles), a Keras
// config's classes (a .keras archive's, a directory's, a legacy .h5 file's), a TorchScript
// archive's scripted classes and code files, an ONNX model's ops of domains other than ONNX's
// own. Read from the summary the report already has; a file that runs nothing (safetensors,
// GGUF) gets no panel.
import {h} from './dom.js';
import * as fmt from './format.js';

const MAX_ROWS = 500;  // a hostile file cannot make the table grow without bound
const ONNX_DOMAINS = new Set(['', 'ai.onnx', 'ai.onnx.ml', 'ai.onnx.training', 'ai.onnx.preview.training']);

// verdict -> [chip class, words, rank]: the dangerous first.
const VERDICTS = {
  dangerous: ['bad', 'dangerous', 0],
  code: ['warn', 'runs its code', 1],
  unknown: ['warn', 'unknown', 2],
  custom: ['warn', 'custom', 2],
  allowed: ['good', 'allowed', 3],
  keras: ['good', 'Keras', 3],
};

function list(v) {
  return Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : [];
}

function str(v) {
  return v === null || v === undefined ? '' : String(v);
}

// One pickle's globals: what it imports (GLOBAL, STACK_GLOBAL) and calls (REDUCE, BUILD, NEWOBJ).
function pickleRows(summary, where) {
  return list(summary?.globals).map((g) => ({
    kind: Number(g.calls || 0) > 0 ? 'call' : 'import',
    name: `${str(g.module)}.${str(g.name)}`,
    where,
    verdict: str(g.verdict) || 'unknown',
    note: str(g.reason),
    uses: Number(g.imports || 0) + Number(g.calls || 0),
  }));
}

// A TorchScript code file is dangerous when a TS.code finding names it, else its code runs.
function codeFileVerdict(entry, findings) {
  return findings.some((f) => str(f.rule).startsWith('TS.code') && str(f.message).includes(entry)) ? 'dangerous' : 'code';
}

export function executionRows(report) {
  const s = report?.summary;
  if (!s || typeof s !== 'object') return [];
  const findings = list(report.findings);
  const rows = [];
  if (s.kind === 'pickle') rows.push(...pickleRows(s, 'the pickle'));
  for (const p of list(s.pickles)) rows.push(...pickleRows(p.summary, str(p.entry)));
  // A .keras archive's or a Keras directory's facts are `keras`; a legacy .h5 file's are its `keras.model`.
  const keras = s.keras && typeof s.keras === 'object' ? (Array.isArray(s.keras.classes) ? s.keras : s.keras.model) : null;
  if (keras && typeof keras === 'object') {
    for (const k of list(keras.classes)) {
      rows.push({kind: 'Keras object', name: str(k.class_name), where: str(k.module) || 'config.json',
        verdict: str(k.verdict) || 'custom', note: '', uses: Number(k.count || 0)});
    }
  }
  if (s.torchscript && typeof s.torchscript === 'object') {
    for (const c of list(s.torchscript.classes)) {
      rows.push({kind: 'scripted class', name: str(c.name), where: str(s.torchscript.archive), verdict: 'code', note: '', uses: null});
    }
    for (const c of list(s.torchscript.code_files)) {
      const entry = str(c.entry);
      rows.push({kind: 'code file', name: entry, where: str(s.torchscript.archive), verdict: codeFileVerdict(entry, findings), note: '', uses: null});
    }
  }
  if (report.format === 'onnx') {
    for (const o of list(s.ops)) {
      if (ONNX_DOMAINS.has(str(o.domain))) continue;
      rows.push({kind: 'custom op', name: str(o.op_type), where: str(o.domain), verdict: 'custom',
        note: 'a kernel the runtime must be given', uses: Number(o.count || 0)});
    }
  }
  const rank = (r) => (VERDICTS[r.verdict] || VERDICTS.unknown)[2];
  return rows.sort((a, b) => rank(a) - rank(b));
}

function verdictChip(verdict, note) {
  const [cls, words] = VERDICTS[verdict] || ['warn', verdict];
  return h('span.badge.' + cls, note ? {title: note} : null, words);
}

// The panel, or null when the file runs nothing the summary names.
export function executionPanel(report) {
  const rows = executionRows(report);
  if (!rows.length) return null;
  const dangerous = rows.filter((r) => r.verdict === 'dangerous').length;
  const body = rows.slice(0, MAX_ROWS).map((r) => h('tr', {dataset: {verdict: r.verdict, kind: r.kind}},
    h('td', null, verdictChip(r.verdict, r.note)),
    h('td', null, r.kind),
    h('td', null, h('code', null, r.name)),
    h('td', null, r.where),
    h('td.num', null, r.uses === null ? '' : fmt.int(r.uses)),
    h('td.muted', null, r.note)));
  return h('section.panel.execution-panel', {'aria-label': 'What loading it would run'},
    h('div.panel-head', null, h('h2', null, 'What loading it would run'),
      h('span.muted', null, dangerous ? fmt.plural(dangerous, 'dangerous item') : fmt.plural(rows.length, 'item'))),
    h('table.compact.execution', null,
      h('thead', null, h('tr', null, h('th', null, 'Verdict'), h('th', null, 'Kind'), h('th', null, 'Name'),
        h('th', null, 'Where, from'), h('th.num', null, 'Uses'), h('th', null, 'Why'))),
      h('tbody', null, body),
      rows.length > MAX_ROWS ? h('tfoot', null, h('tr', null, h('td', {colSpan: 6}, `and ${fmt.int(rows.length - MAX_ROWS)} more`))) : null));
}
