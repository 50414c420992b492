// The findings table: severity, rule (id, title and help from /v1/rules), message, byte offset
// in decimal and hex, tensor. Sortable by every column, filterable by text and severity. The
// service caps findings (Limits::max_findings), so the table is rendered whole.
import {ruleInfo} from './api.js';
import {h, clear, sortableHead, nextSort} from './dom.js';
import * as fmt from './format.js';

const SEVERITY_RANK = {error: 0, warning: 1, info: 2};
const SEVERITIES = ['error', 'warning', 'info'];

function severityRank(s) {
  return s in SEVERITY_RANK ? SEVERITY_RANK[s] : 3;
}

const COLUMNS = [
  {key: 'severity', label: 'Severity'},
  {key: 'rule', label: 'Rule'},
  {key: 'message', label: 'Message'},
  {key: 'offset', label: 'Offset', num: true},
  {key: 'tensor', label: 'Tensor'},
];

function sortValue(f, key) {
  if (key === 'severity') return severityRank(f.severity);
  if (key === 'offset') return f.offset;
  return f[key];
}

function matches(f, info, needle) {
  if (!needle) return true;
  const hay = [f.rule, f.message, f.tensor, info?.title, info?.help].filter((x) => typeof x === 'string');
  return hay.some((s) => s.toLowerCase().includes(needle));
}

export function severityChip(severity) {
  const known = SEVERITIES.includes(severity) ? severity : 'other';
  return h('span.sev.' + known, null, String(severity ?? 'unknown'));
}

// `findings` as the report gives them; `dropped` the report's findings_dropped.
export function findingsPanel(findings, rules, {dropped = 0, title = 'Findings', none = 'No findings: every rule holds.'} = {}) {
  const list = Array.isArray(findings) ? findings : [];
  if (!list.length && !dropped) {
    return h('section.panel.findings-panel', {'aria-label': title},
      h('div.panel-head', null, h('h2', null, title), h('span.muted', null, '0 findings')),
      h('p.all-clear', null, h('span.all-clear-icon', {'aria-hidden': 'true'}, '✓'), none));
  }
  const counts = {};
  for (const f of list) counts[f.severity] = (counts[f.severity] || 0) + 1;
  const shown = new Set(SEVERITIES.concat(Object.keys(counts)));
  let sort = {key: 'severity', dir: 1};
  let needle = '';

  const body = h('tbody');
  const table = h('table.findings');
  const countLine = h('span.muted');
  const search = h('input.search', {type: 'search', placeholder: 'Filter: rule, message, tensor', 'aria-label': 'filter findings',
    oninput: (e) => { needle = e.target.value.trim().toLowerCase(); render(); }});
  const toggles = h('div.toggles', null, Object.keys(counts).sort((a, b) => severityRank(a) - severityRank(b)).map((sev) =>
    h('label.toggle.' + (SEVERITIES.includes(sev) ? sev : 'other'), null,
      h('input', {type: 'checkbox', checked: true, dataset: {severity: sev},
        onchange: (e) => { if (e.target.checked) shown.add(sev); else shown.delete(sev); render(); }}),
      `${sev} ${fmt.int(counts[sev])}`)));

  function row(f) {
    const info = ruleInfo(rules, f.rule);
    const ruleCell = h('td.rule', null,
      h('code.rule-id', null, f.rule),
      info?.title ? h('div.rule-title', null, info.title) : h('div.rule-title.muted', null, 'not in this service\u2019s catalogue'),
      info?.help ? h('div.rule-help', null, info.help) : null);
    const offset = f.offset === null || f.offset === undefined
      ? h('td.num.muted', null, '—')
      : h('td.num', null, h('span.dec', null, fmt.int(f.offset)), h('span.hex', null, fmt.hex(f.offset)));
    return h('tr', {dataset: {rule: String(f.rule), severity: String(f.severity)}},
      h('td', null, severityChip(f.severity)),
      ruleCell,
      h('td.message', null, f.message),
      offset,
      h('td.tensor', null, f.tensor === null || f.tensor === undefined ? h('span.muted', null, '—') : h('code', null, f.tensor)));
  }

  function render() {
    const visible = list.filter((f) => shown.has(f.severity) && matches(f, ruleInfo(rules, f.rule), needle));
    visible.sort((a, b) => sort.dir * fmt.compare(sortValue(a, sort.key), sortValue(b, sort.key)) ||
      fmt.compare(a.offset, b.offset));
    table.replaceChildren(sortableHead(COLUMNS, sort, (key) => { sort = nextSort(sort, key); render(); }), clear(body));
    for (const f of visible) body.append(row(f));
    if (!visible.length) body.append(h('tr', null, h('td.empty', {colspan: String(COLUMNS.length)}, list.length ? 'No finding matches the filter.' : 'No findings.')));
    countLine.textContent = visible.length === list.length ? fmt.plural(list.length, 'finding') : `${fmt.int(visible.length)} of ${fmt.plural(list.length, 'finding')}`;
  }
  render();

  return h('section.panel.findings-panel', {'aria-label': title},
    h('div.panel-head', null, h('h2', null, title), countLine),
    list.length ? h('div.controls', null, search, toggles) : null,
    h('div.table-wrap', null, table),
    dropped ? h('p.note', null, `${fmt.int(dropped)} more findings were counted but not listed (the service's findings limit).`) : null);
}
