// The tensor inventory: a searchable, sortable table that renders only the rows in view, so a
// header of 100,000 (or a million) tensors scrolls as smoothly as one of ten. The rows are a
// fixed pool of elements, refilled as the view moves.
import {h, text, nextSort} from './dom.js';
import * as fmt from './format.js';

const ROW_H = 30;             // px; style.css .vrow has the same height
const VIEW_ROWS = 16;         // rows the viewport shows
const OVERSCAN = 6;           // rows drawn beyond each edge
// Browsers cap an element's height near 33,554,432 px: past this the scroll position maps to
// rows proportionally instead of one row per ROW_H.
const MAX_SCROLL_PX = 8_000_000;

const COLUMNS = [
  {key: 'index', label: '#', num: true},
  {key: 'name', label: 'Name'},
  {key: 'type', label: 'Type'},
  {key: 'shape', label: 'Shape'},
  {key: 'params', label: 'Parameters', num: true},
  {key: 'bytes', label: 'Bytes', num: true},
  {key: 'begin', label: 'Data offsets', num: true},
];

function product(shape) {
  if (!Array.isArray(shape)) return null;
  let n = 1;
  for (const d of shape) n *= Number(d);
  return n;
}

// One row per tensor, whatever the format calls its fields: safetensors has dtype and
// data_offsets, GGUF type, offset and bytes, legacy GGML dims (innermost first), Flax a path,
// OpenVINO an element_type and a size, TFLite a data_offset. Unknown formats show what they share.
export function inventoryRows(tensors) {
  const rows = new Array(tensors.length);
  for (let i = 0; i < tensors.length; i++) {
    const t = tensors[i] || {};
    const offsets = Array.isArray(t.data_offsets) ? t.data_offsets : null;
    const begin = offsets ? offsets[0] : t.offset ?? t.data_offset ?? null;
    const bytes = offsets ? (typeof offsets[0] === 'bigint' || typeof offsets[1] === 'bigint' ? BigInt(offsets[1]) - BigInt(offsets[0]) : offsets[1] - offsets[0]) : t.bytes ?? t.size ?? null;
    const end = offsets ? offsets[1] : begin !== null && bytes !== null ? Number(begin) + Number(bytes) : null;
    const shape = t.shape ?? (Array.isArray(t.dims) ? [...t.dims].reverse() : undefined);
    rows[i] = {index: i, name: String(t.name ?? t.path ?? ''), type: String(t.dtype ?? t.type ?? t.element_type ?? ''), shape,
      params: product(shape), bytes, begin, end, lower: null};
  }
  return rows;
}

export function inventoryPanel(tensors, {dataStartLabel = 'the data section'} = {}) {
  const all = inventoryRows(tensors);
  const types = [...new Set(all.map((r) => r.type))].sort();
  let view = all;
  let sort = {key: 'index', dir: 1};
  let needle = '';
  let typeFilter = '';

  const head = h('div.vrow.vhead', {role: 'row'});
  const spacer = h('div.vspacer');
  const rowsBox = h('div.vrows', {role: 'rowgroup'});
  const scroller = h('div.vscroll', {tabindex: '0', role: 'table', 'aria-label': 'tensor inventory', 'aria-rowcount': String(all.length)}, spacer, rowsBox);
  const status = h('span.muted.inventory-status', {'aria-live': 'polite'});
  const pool = [];
  for (let i = 0; i < VIEW_ROWS + 2 * OVERSCAN; i++) {
    const cells = COLUMNS.map((c) => h('div.vcell' + (c.num ? '.num' : '') + '.c-' + c.key, {role: 'cell'}));
    const el = h('div.vrow', {role: 'row'}, cells);
    pool.push({el, cells, index: -1});
    rowsBox.append(el);
  }

  function fill(slot, r, position) {
    slot.index = r.index;
    slot.el.hidden = false;
    slot.el.classList.toggle('odd', position % 2 === 1);
    slot.el.dataset.index = String(r.index);
    const c = slot.cells;
    c[0].textContent = fmt.int(r.index);
    c[1].replaceChildren(text(r.name));
    c[1].title = r.name.length < 2000 ? r.name : r.name.slice(0, 2000) + '…';
    c[2].replaceChildren(text(r.type));
    c[3].replaceChildren(text(fmt.shape(r.shape)));
    c[4].textContent = fmt.int(r.params);
    c[5].textContent = fmt.int(r.bytes);
    c[6].textContent = r.begin === null ? '—' : `${fmt.int(r.begin)} – ${fmt.int(r.end)}`;
    c[6].title = r.begin === null ? '' : `${fmt.hex(r.begin)} – ${fmt.hex(r.end)}, from the start of ${dataStartLabel}`;
  }

  let frame = 0;
  function paint() {
    frame = 0;
    // The header lines up with the rows above the scroll bar.
    head.style.paddingRight = `${scroller.offsetWidth - scroller.clientWidth}px`;
    const n = view.length;
    const natural = n * ROW_H;
    const height = Math.min(natural, MAX_SCROLL_PX);
    spacer.style.height = `${height}px`;
    const top = scroller.scrollTop;
    const viewport = scroller.clientHeight || VIEW_ROWS * ROW_H;
    let first;
    let y;
    if (natural <= MAX_SCROLL_PX) {
      first = Math.floor(top / ROW_H);
      y = first * ROW_H;
    } else {
      const maxScroll = Math.max(1, height - viewport);
      const visible = Math.ceil(viewport / ROW_H);
      first = Math.round((Math.min(top, maxScroll) / maxScroll) * Math.max(0, n - visible));
      y = top;
    }
    const start = Math.max(0, first - OVERSCAN);
    const shift = (first - start) * ROW_H;
    rowsBox.style.transform = `translateY(${Math.max(0, y - shift)}px)`;
    for (let i = 0; i < pool.length; i++) {
      const r = view[start + i];
      if (r) fill(pool[i], r, start + i);
      else pool[i].el.hidden = true;
    }
    const lastShown = Math.min(n, first + Math.floor(viewport / ROW_H));
    status.textContent = n ? `Rows ${fmt.int(first + 1)}–${fmt.int(lastShown)} of ${fmt.int(n)}` +
      (n !== all.length ? ` (filtered from ${fmt.int(all.length)})` : '') : 'No tensor matches the filter.';
  }
  function schedule() {
    if (!frame) frame = requestAnimationFrame(paint);
  }

  function apply() {
    let rows = all;
    if (needle || typeFilter) {
      rows = [];
      for (const r of all) {
        if (typeFilter && r.type !== typeFilter) continue;
        if (needle) {
          if (r.lower === null) r.lower = r.name.toLowerCase();
          if (!r.lower.includes(needle)) continue;
        }
        rows.push(r);
      }
    } else {
      rows = all.slice();
    }
    if (sort.key !== 'index' || sort.dir !== 1) {
      const key = sort.key === 'shape' ? 'params' : sort.key;
      rows.sort((a, b) => sort.dir * fmt.compare(a[key], b[key]) || a.index - b.index);
    }
    view = rows;
    // A short table is as tall as its rows; a long one shows VIEW_ROWS at a time.
    scroller.style.height = `${Math.min(VIEW_ROWS, Math.max(view.length, 1)) * ROW_H + 2}px`;
    head.replaceChildren(...COLUMNS.map((c) => {
      const active = sort.key === c.key;
      return h('div.vcell' + (c.num ? '.num' : '') + '.c-' + c.key, {role: 'columnheader', 'aria-sort': active ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none'},
        h('button.sort', {type: 'button', onclick: () => { sort = nextSort(sort, c.key); apply(); }}, c.label,
          h('span.arrow', {'aria-hidden': 'true'}, active ? (sort.dir > 0 ? '▲' : '▼') : '')));
    }));
    scroller.scrollTop = 0;
    paint();
  }

  let debounce = 0;
  const search = h('input.search', {type: 'search', placeholder: `Search ${fmt.int(all.length)} tensor names`, 'aria-label': 'search tensors',
    oninput: (e) => {
      clearTimeout(debounce);
      debounce = setTimeout(() => { needle = e.target.value.trim().toLowerCase(); apply(); }, all.length > 20000 ? 150 : 0);
    }});
  const typeSelect = types.length > 1 ? h('select', {'aria-label': 'filter by type', onchange: (e) => { typeFilter = e.target.value; apply(); }},
    h('option', {value: ''}, 'All types'), types.map((t) => h('option', {value: t}, t))) : null;

  scroller.addEventListener('scroll', schedule, {passive: true});
  new ResizeObserver(schedule).observe(scroller);
  apply();

  return h('section.panel.inventory-panel', {'aria-label': 'Tensors'},
    h('div.panel-head', null, h('h2', null, 'Tensors'), h('span.muted', null, fmt.plural(all.length, 'tensor'))),
    h('div.controls', null, search, typeSelect, status),
    h('div.vtable', null, head, scroller));
}
