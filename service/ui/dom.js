// Building the page without HTML strings. Everything a file says (names, metadata, messages) is
// untrusted: it reaches the page only as text nodes, through text() below. The server's
// Content-Security-Policy enforces Trusted Types with no policy, so an innerHTML assignment
// would throw rather than parse.

const SVG_NS = 'http://www.w3.org/2000/svg';

// Characters that change how the text around them reads without being seen: C0 and C1
// controls (ANSI escapes start with one), bidirectional overrides and isolates, zero-width
// characters. They are shown as visible marks instead.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\ufff9-\ufffb]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
const NAMES = {
  0x09: 'TAB', 0x0a: 'LF', 0x0d: 'CR', 0x1b: 'ESC', 0x00: 'NUL', 0x7f: 'DEL',
  0x200e: 'LRM', 0x200f: 'RLM', 0x202a: 'LRE', 0x202b: 'RLE', 0x202c: 'PDF', 0x202d: 'LRO',
  0x202e: 'RLO', 0x2066: 'LRI', 0x2067: 'RLI', 0x2068: 'FSI', 0x2069: 'PDI', 0x200b: 'ZWSP',
  0x200c: 'ZWNJ', 0x200d: 'ZWJ', 0xfeff: 'BOM',
};

// The longest run of one value the page shows; the downloaded report has all of it. A header
// may hold a 100 MB string: the page stays responsive.
export const MAX_SHOWN_CHARS = 4000;

function codepoint(ch) {
  const cp = ch.codePointAt(0);
  return 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
}

// A fragment of text nodes for `value`, with invisible characters as marked chips and very
// long values cut (saying how much was left out).
export function text(value) {
  const s = value === null || value === undefined ? '' : String(value);
  const frag = document.createDocumentFragment();
  const shown = s.length > MAX_SHOWN_CHARS ? s.slice(0, MAX_SHOWN_CHARS) : s;
  if (!INVISIBLE.test(shown)) {
    frag.append(document.createTextNode(shown));
  } else {
    let last = 0;
    for (const m of shown.matchAll(INVISIBLE_ALL)) {
      if (m.index > last) frag.append(document.createTextNode(shown.slice(last, m.index)));
      const cp = m[0].codePointAt(0);
      const chip = document.createElement('span');
      chip.className = 'ctl';
      chip.textContent = NAMES[cp] || codepoint(m[0]);
      chip.title = codepoint(m[0]) + ': an invisible or control character in the file';
      frag.append(chip);
      last = m.index + m[0].length;
    }
    if (last < shown.length) frag.append(document.createTextNode(shown.slice(last)));
  }
  if (shown.length < s.length) {
    const more = document.createElement('span');
    more.className = 'cut';
    more.textContent = ` … ${(s.length - shown.length).toLocaleString('en')} more characters (in the downloaded report)`;
    frag.append(more);
  }
  return frag;
}

// True when `value` holds characters text() marks.
export function hasInvisible(value) {
  return typeof value === 'string' && INVISIBLE.test(value);
}

function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(node, c);
  } else if (child instanceof Node) {
    node.append(child);
  } else {
    node.append(text(child));
  }
}

// h('td.num', {title: 'x'}, 'text', child): an element with classes from the tag (tag.a.b),
// attributes and properties from `props` (on* keys are event listeners), and children (strings
// become text()).
export function h(tag, props, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  setProps(el, props);
  append(el, children);
  return el;
}

function setProps(el, props) {
  if (!props) return;
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className = v;
    else if (k === 'hidden' || k === 'disabled' || k === 'checked' || k === 'value') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

// An SVG element with attributes (the chart).
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

// A table head whose cells sort by `key` when clicked: onSort(key) is called, and the current
// column shows its direction.
export function sortableHead(columns, state, onSort) {
  const row = h('tr');
  for (const c of columns) {
    const active = state.key === c.key;
    const th = h('th' + (c.num ? '.num' : ''), {scope: 'col', 'aria-sort': active ? (state.dir > 0 ? 'ascending' : 'descending') : 'none'});
    if (c.key) {
      th.append(h('button.sort', {type: 'button', onclick: () => onSort(c.key)}, c.label,
                  h('span.arrow', {'aria-hidden': 'true'}, active ? (state.dir > 0 ? '▲' : '▼') : '')));
    } else {
      th.append(c.label);
    }
    row.append(th);
  }
  return h('thead', null, row);
}

// Next sort state after a click on `key`: the same column flips, another starts ascending.
export function nextSort(state, key) {
  return state.key === key ? {key, dir: -state.dir} : {key, dir: 1};
}
