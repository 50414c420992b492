// Parameters and bytes per dtype (safetensors) or ggml type (GGUF), as horizontal bars drawn in
// SVG by this code: a bar for each measure a type, each scaled to its own total, with the share
// written out. A model directory counts parameters only: its chart has one bar a type.
import {svg, h} from './dom.js';
import * as fmt from './format.js';

const LABEL_W = 120;
const BAR_W = 360;
const VALUE_W = 180;
const BAR_H = 12;
const MAX_TYPES = 24;  // a hostile file cannot make the chart grow without bound

function has(entries, field) {
  return entries.some(([, v]) => v[field] !== undefined && v[field] !== null);
}

function bar(x, y, fraction, cls) {
  return [svg('rect', {x, y, width: BAR_W, height: BAR_H, rx: 3, class: 'bar-track'}),
    svg('rect', {x, y, width: Math.max(fraction > 0 ? 2 : 0, fraction * BAR_W).toFixed(1), height: BAR_H, rx: 3, class: cls})];
}

// `types`: {NAME: {tensors, parameters, bytes}} (bytes and tensors may be absent).
export function dtypeChart(types) {
  const entries = Object.entries(types || {}).filter(([, v]) => v && typeof v === 'object');
  if (!entries.length) return null;
  const measures = [{field: 'parameters', cls: 'bar-params', show: (v) => fmt.count(v)}];
  if (has(entries, 'bytes')) measures.push({field: 'bytes', cls: 'bar-bytes', show: (v) => fmt.bytes(v)});
  const lead = measures[measures.length - 1].field;
  entries.sort((a, b) => Number(b[1][lead] || 0) - Number(a[1][lead] || 0));
  const shown = entries.slice(0, MAX_TYPES);
  const totals = Object.fromEntries(measures.map((m) => [m.field, entries.reduce((s, [, v]) => s + Number(v[m.field] || 0), 0)]));
  const rowH = measures.length * (BAR_H + 2) + 8;
  const width = LABEL_W + BAR_W + VALUE_W;
  const height = shown.length * rowH + 28;
  const root = svg('svg', {class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'parameters and bytes by type'},
    svg('title', {}, 'Parameters and bytes by type'));
  measures.forEach((m, i) => {
    const x = LABEL_W + i * 110;
    root.append(svg('rect', {x, y: 4, width: 12, height: 12, rx: 2, class: m.cls}), svg('text', {x: x + 18, y: 14, class: 'legend'}, m.field));
  });
  shown.forEach(([name, v], i) => {
    const y = 26 + i * rowH;
    const g = svg('g', {class: 'chart-row', 'data-type': name},
      svg('title', {}, `${name}: ` + [v.tensors !== undefined ? fmt.plural(v.tensors, 'tensor') : null, `${fmt.int(v.parameters)} parameters`,
        v.bytes !== undefined ? fmt.bytes(v.bytes) : null].filter(Boolean).join(', ')),
      svg('text', {x: LABEL_W - 10, y: y + measures.length * (BAR_H + 2) / 2 + 4, class: 'type-label', 'text-anchor': 'end'},
        name.length > 15 ? name.slice(0, 14) + '…' : name));
    measures.forEach((m, k) => {
      const by = y + k * (BAR_H + 2);
      const fraction = totals[m.field] ? Number(v[m.field] || 0) / totals[m.field] : 0;
      g.append(...bar(LABEL_W, by, fraction, m.cls),
        svg('text', {x: LABEL_W + BAR_W + 10, y: by + BAR_H - 2, class: 'value'}, `${m.show(v[m.field])} · ${fmt.percent(v[m.field], totals[m.field])}`));
    });
    root.append(g);
  });
  const withTensors = has(entries, 'tensors');
  const rows = entries.map(([name, v]) => h('tr', null, h('td', null, h('code', null, name)),
    withTensors ? h('td.num', null, fmt.int(v.tensors)) : null,
    h('td.num', null, fmt.int(v.parameters)),
    measures.length > 1 ? h('td.num', null, fmt.bytes(v.bytes)) : null));
  return h('div.chart-wrap', null, root,
    entries.length > MAX_TYPES ? h('p.note', null, `The ${fmt.int(entries.length - MAX_TYPES)} smallest types are in the table only.`) : null,
    h('table.compact', null,
      h('thead', null, h('tr', null, h('th', null, 'Type'), withTensors ? h('th.num', null, 'Tensors') : null, h('th.num', null, 'Parameters'),
        measures.length > 1 ? h('th.num', null, 'Bytes') : null)),
      h('tbody', null, rows)));
}
