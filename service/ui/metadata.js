// A file's metadata map (safetensors __metadata__), and the other facts of a summary that the
// page has no card for, as key/value tables. Keys and values are untrusted text.
import {h} from './dom.js';
import * as fmt from './format.js';
import {stringify} from './json.js';

const MAX_ENTRIES = 2000;  // the downloaded report has the rest

function valueCell(v) {
  if (v === null || v === undefined) return h('td.muted', null, 'null');
  if (typeof v === 'object') return h('td', null, h('div.value.mono', null, stringify(v)));
  if (typeof v === 'number' || typeof v === 'bigint') return h('td', null, h('span.mono', null, fmt.int(v)));
  return h('td', null, h('div.value', null, String(v)));
}

export function keyValueTable(entries, {keyLabel = 'Key', valueLabel = 'Value'} = {}) {
  const shown = entries.slice(0, MAX_ENTRIES);
  return h('div.table-wrap', null,
    h('table.kv', null,
      h('thead', null, h('tr', null, h('th', {scope: 'col'}, keyLabel), h('th', {scope: 'col'}, valueLabel))),
      h('tbody', null, shown.map(([k, v]) => h('tr', null, h('th', {scope: 'row'}, h('code', null, k)), valueCell(v))))),
    entries.length > shown.length ? h('p.note', null, `${fmt.int(entries.length - shown.length)} more entries are in the downloaded report.`) : null);
}

export function metadataPanel(metadata) {
  const entries = metadata && typeof metadata === 'object' ? Object.entries(metadata) : [];
  return h('section.panel.metadata-panel', {'aria-label': 'Metadata'},
    h('div.panel-head', null, h('h2', null, 'Metadata'), h('span.muted', null, fmt.plural(entries.length, 'entry', 'entries'))),
    entries.length ? keyValueTable(entries) : h('p.muted', null, 'The file has no metadata.'));
}
