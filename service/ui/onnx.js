// An ONNX model's own panels (the op chart serves a SavedModel's graph too): its nodes by op type as horizontal bars drawn in SVG by this code
// (the dtype chart's look: a bar a type, scaled to the largest count, the share written out),
// and the main graph's inputs and outputs. Everything else of its summary is the cards, the
// dtype chart and the tensor inventory every format has.
import {svg, h} from './dom.js';
import * as fmt from './format.js';

const LABEL_W = 190;
const BAR_W = 300;
const VALUE_W = 150;
const BAR_H = 14;
const ROW_H = 22;
const MAX_BARS = 24;     // a hostile model cannot make the chart grow without bound
const MAX_ROWS = 500;    // nor the tables under it
const LABEL_CHARS = 24;

// "Conv", or "com.microsoft / Attention" for an op of another domain; a SavedModel's op has no
// domain ({op, count}).
export function opLabel(op) {
  const type = String(op?.op_type ?? op?.op ?? '');
  const domain = String(op?.domain ?? '');
  return domain && domain !== 'ai.onnx' ? `${domain} / ${type}` : type;
}

function cut(s, n) {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

// `ops`: [{domain, op_type, count}] (ONNX) or [{op, count}] (a SavedModel) as the summary lists them; `notListed`: op types counted past
// the list. Largest first, the first MAX_BARS as bars, every one in the table.
export function opsChart(ops, notListed) {
  const entries = (Array.isArray(ops) ? ops : []).filter((o) => o && typeof o === 'object')
    .map((o) => ({label: opLabel(o), count: Number(o.count || 0)}));
  if (!entries.length) return null;
  entries.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  const shown = entries.slice(0, MAX_BARS);
  const total = entries.reduce((s, e) => s + e.count, 0);
  const largest = shown[0].count || 1;
  const width = LABEL_W + BAR_W + VALUE_W;
  const height = shown.length * ROW_H + 10;
  const root = svg('svg', {class: 'chart ops-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'nodes by op type'},
    svg('title', {}, 'Nodes by op type'));
  shown.forEach((e, i) => {
    const y = 6 + i * ROW_H;
    const fraction = e.count / largest;
    root.append(svg('g', {class: 'chart-row', 'data-op': e.label},
      svg('title', {}, `${e.label}: ${fmt.plural(e.count, 'node')}`),
      svg('text', {x: LABEL_W - 10, y: y + BAR_H - 3, class: 'type-label', 'text-anchor': 'end'}, cut(e.label, LABEL_CHARS)),
      svg('rect', {x: LABEL_W, y, width: BAR_W, height: BAR_H, rx: 3, class: 'bar-track'}),
      svg('rect', {x: LABEL_W, y, width: Math.max(2, fraction * BAR_W).toFixed(1), height: BAR_H, rx: 3, class: 'bar-ops'}),
      svg('text', {x: LABEL_W + BAR_W + 10, y: y + BAR_H - 3, class: 'value'}, `${fmt.int(e.count)} · ${fmt.percent(e.count, total)}`)));
  });
  const rows = entries.slice(0, MAX_ROWS).map((e) => h('tr', null, h('td', null, h('code', null, e.label)), h('td.num', null, fmt.int(e.count))));
  const hidden = entries.length - shown.length;
  const unlisted = Number(notListed || 0);
  return h('div.chart-wrap', null, root,
    hidden > 0 ? h('p.note', null, `The ${fmt.int(hidden)} rarest op types are in the table only.`) : null,
    unlisted > 0 ? h('p.note', null, `${fmt.plural(unlisted, 'more op type')} counted by the service, not listed.`) : null,
    h('table.compact', null,
      h('thead', null, h('tr', null, h('th', null, 'Op type'), h('th.num', null, 'Nodes'))),
      h('tbody', null, rows),
      entries.length > MAX_ROWS ? h('tfoot', null, h('tr', null, h('td', {colSpan: 2}, `and ${fmt.int(entries.length - MAX_ROWS)} more`))) : null));
}

function shapeText(v) {
  if (!Array.isArray(v?.shape)) return 'any shape';
  return '[' + v.shape.map((d) => String(d)).join(', ') + ']';
}

// The main graph's inputs and outputs: name, element type, shape (numbers, symbolic names, "?").
export function graphValues(summary) {
  const rows = [];
  for (const [role, list] of [['input', summary.inputs], ['output', summary.outputs]]) {
    for (const v of (Array.isArray(list) ? list : []).slice(0, MAX_ROWS)) {
      if (!v || typeof v !== 'object') continue;
      rows.push(h('tr', {dataset: {role}}, h('td', null, role), h('td', null, h('code', null, String(v.name ?? ''))),
        h('td', null, h('code', null, v.type ? String(v.type) : '—')), h('td', null, h('code', null, shapeText(v)))));
    }
  }
  if (!rows.length) return null;
  return h('table.compact.graph-values', null,
    h('thead', null, h('tr', null, h('th', null, 'Role'), h('th', null, 'Name'), h('th', null, 'Type'), h('th', null, 'Shape'))),
    h('tbody', null, rows));
}

// The initializers as the tensor inventory reads tensors: raw_data's offset in the file where
// the summary has one (typed and external data have none).
export function initializerTensors(summary) {
  if (!Array.isArray(summary.initializers)) return [];
  return summary.initializers.filter((t) => t && typeof t === 'object')
    .map((t) => ({name: t.name, dtype: t.dtype, shape: t.shape, bytes: t.bytes, offset: t.data_offset ?? null}));
}
