// Summary cards: the facts of a report's summary a person asks first. Fields the page knows get
// a card with a label and a unit; fields it does not know (a newer service, a new format) are
// listed under "Other facts", so nothing the service says is hidden.
import {h} from './dom.js';
import * as fmt from './format.js';
import {keyValueTable} from './metadata.js';

const yesNo = (v) => (v === true ? 'yes' : v === false ? 'no' : v);

// key -> [label (or report format -> label), formatter(value, summary) -> [main, sub]], in the order people read them:
// what the model is, how big, how it is stored, then the file's technical facts.
const CARDS = {
  architecture: ['Architecture', (v) => [v ?? 'not recognised']],
  name: ['Model name', (v) => [v]],
  producer_name: ['Producer', (v, s) => [v || 'not named', s.producer_version ? `version ${s.producer_version}` : '']],
  parameters: ['Parameters', (v) => [fmt.count(v), fmt.int(v)]],
  tensor_count: ['Tensors', (v) => [fmt.int(v)]],
  initializer_count: ['Initializers', (v) => [fmt.int(v)]],
  nodes: ['Nodes', (v, s) => [fmt.int(v), [s.graphs !== undefined ? fmt.plural(s.graphs, 'graph') : null,
    s.functions ? fmt.plural(s.functions, 'function') : null].filter(Boolean).join(' · ')]],
  file_type_name: ['Quantisation', (v, s) => [v, s.file_type !== undefined ? `file type ${s.file_type}` : '']],
  types: ['Type mix (bytes)', (v) => typeMix(v)],
  context_length: ['Context length', (v) => [fmt.int(v), 'tokens']],
  vocab_size: ['Vocabulary', (v) => [fmt.int(v), 'tokens']],
  layers: ['Layers', (v) => [v === null ? 'not known' : fmt.int(v)]],
  block_count: ['Layers', (v) => [fmt.int(v)]],
  embedding_length: ['Embedding length', (v) => [fmt.int(v)]],
  sharded: ['Sharded', (v) => [yesNo(v)]],
  shard_count: ['Shards', (v) => [fmt.int(v)]],
  weight_map_size: ['Index entries', (v) => [fmt.int(v)]],
  header_length: ['Header', (v) => [fmt.bytes(v), `${fmt.int(v)} bytes`]],
  data_offset: ['Header and metadata', (v) => [fmt.bytes(v), `data starts at ${fmt.hex(v)}`]],
  data_length: ['Data', (v) => [fmt.bytes(v), `${fmt.int(v)} bytes`]],
  bytes: ['Tensor bytes', (v) => [fmt.bytes(v), `${fmt.int(v)} bytes`]],
  min_reference_version: ['Reference reader', (v) => [v ? `≥ ${v}` : 'none loads it', 'oldest safetensors version that loads it']],
  tokenizer_model: ['Tokenizer', (v) => [v]],
  chat_template: ['Chat template', (v) => [yesNo(v)]],
  quantization_version: ['Quantisation version', (v) => [fmt.int(v)]],
  // Several formats have a version: the label says whose (a legacy GGML file's is no GGUF's).
  version: [(format) => (format === 'gguf' ? 'GGUF version' : 'Format version'), (v) => [fmt.int(v)]],
  ir_version: [(format) => (format === 'onnx' ? 'ONNX IR version' : 'IR version'), (v) => [fmt.int(v)]],
  opsets: ['Opsets', (v) => opsetText(v)],
  alignment: ['Alignment', (v) => [`${fmt.int(v)} B`]],
  byte_order: ['Byte order', (v) => [v]],
  kv_count: ['Metadata keys', (v) => [fmt.int(v)]],
};
// Shown elsewhere on the page (the charts, the inventory, the metadata table, ONNX's graph
// inputs and outputs) or in a card's sub.
const ELSEWHERE = new Set(['tensors', 'dtypes', 'metadata', 'file_type', 'parameter_count', 'files',
  'ops', 'initializers', 'inputs', 'outputs', 'producer_version', 'graphs', 'functions']);

// A key/value map, as the metadata panel shows one (a list, such as TFLite's metadata names, is
// a fact of its own).
export const isMap = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

// ONNX's imported opsets: "ai.onnx 13 · ai.onnx.ml 3" (the default domain is "").
function opsetText(opsets) {
  if (!Array.isArray(opsets) || !opsets.length) return ['none'];
  const named = opsets.filter((o) => o && typeof o === 'object').map((o) => `${o.domain || 'ai.onnx'} ${fmt.int(o.version)}`);
  return [named.slice(0, 3).join(' · '), named.length > 3 ? `${fmt.int(named.length)} domains` : ''];
}

// GGUF's quantisation mix: the share of bytes of each ggml type, largest first.
function typeMix(types) {
  if (!types || typeof types !== 'object') return [null];
  const entries = Object.entries(types);
  const total = entries.reduce((s, [, t]) => s + Number(t?.bytes || 0), 0);
  const mix = entries.sort((a, b) => Number(b[1]?.bytes || 0) - Number(a[1]?.bytes || 0)).slice(0, 4)
    .map(([n, t]) => `${n} ${fmt.percent(t?.bytes, total)}`).join(' · ');
  return [mix, `${fmt.int(entries.length)} types`];
}

// A summary's types map ({NAME: {tensors, parameters, bytes}}) whatever the format calls it.
export function typesOf(summary) {
  if (!summary) return null;
  for (const key of ['dtypes', 'types']) {
    const v = summary[key];
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  }
  // A model directory counts parameters by dtype only.
  const counts = summary.parameter_count;
  if (counts && typeof counts === 'object' && !Array.isArray(counts)) {
    return Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, {parameters: n}]));
  }
  return null;
}

function card(label, main, sub, key) {
  return h('div.card', {dataset: {field: key}},
    h('div.card-label', null, label),
    h('div.card-value', null, main === null || main === undefined || main === '' ? '—' : main),
    sub ? h('div.card-sub', null, sub) : null);
}

// Cards for the known fields (in CARDS' order), and the unknown ones as [key, value] for
// "Other facts"; `shown` names fields this report shows in a panel of its own, `format` is the
// report's.
export function summaryCards(summary, shown = [], format = '') {
  const cards = [];
  const other = [];
  if (!summary || typeof summary !== 'object') return {cards, other};
  const seenLabels = new Set();
  for (const [key, [named, f]] of Object.entries(CARDS)) {
    const label = typeof named === 'function' ? named(format) : named;
    if (!(key in summary) || seenLabels.has(label)) continue;
    seenLabels.add(label);
    const [main, sub] = f(summary[key], summary);
    cards.push(card(label, main, sub, key));
  }
  for (const [key, value] of Object.entries(summary)) {
    const elsewhere = ELSEWHERE.has(key) && (key !== 'metadata' || isMap(value));
    if (!(key in CARDS) && !elsewhere && !shown.includes(key)) other.push([key, value]);
  }
  return {cards, other};
}

export function cardsSection(summary, shown = [], format = '') {
  const {cards, other} = summaryCards(summary, shown, format);
  if (!cards.length && !other.length) return null;
  return h('div.summary', null,
    cards.length ? h('div.cards', null, cards) : null,
    other.length ? h('details.other-facts', null, h('summary', null, `Other facts (${other.length})`), keyValueTable(other, {keyLabel: 'Field'})) : null);
}
