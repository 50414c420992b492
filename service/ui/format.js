// Numbers for people. Integers above 2^53 arrive as BigInt (json.js) and are printed exactly.

export function int(n) {
  if (n === null || n === undefined) return '—';
  if (typeof n === 'bigint') return n.toLocaleString('en');
  return Number(n).toLocaleString('en', {maximumFractionDigits: 0});
}

export function hex(n) {
  if (n === null || n === undefined) return '';
  return '0x' + (typeof n === 'bigint' ? n : BigInt(Math.trunc(Number(n)))).toString(16);
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

// Decimal units, as disks and hubs count: 1 MB = 1,000,000 bytes.
export function bytes(n) {
  if (n === null || n === undefined) return '—';
  let v = Number(n);
  let u = 0;
  while (v >= 1000 && u < UNITS.length - 1) {
    v /= 1000;
    u += 1;
  }
  if (u === 0) return `${v.toLocaleString('en')} B`;
  return `${v.toLocaleString('en', {maximumFractionDigits: v < 10 ? 2 : 1})} ${UNITS[u]}`;
}

// 1.2 k, 3.4 M, 7.0 B parameters.
export function count(n) {
  if (n === null || n === undefined) return '—';
  const v = Number(n);
  const steps = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'k']];
  for (const [size, unit] of steps) {
    if (v >= size) return `${(v / size).toLocaleString('en', {maximumFractionDigits: v / size < 10 ? 2 : 1})} ${unit}`;
  }
  return v.toLocaleString('en');
}

export function rate(bytesPerSecond) {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '—';
  return `${bytes(bytesPerSecond)}/s`;
}

export function duration(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return 'under a second';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const hours = Math.floor(m / 60);
  return `${hours} h ${m % 60} min`;
}

export function percent(part, whole) {
  if (!whole) return '';
  const p = (Number(part) / Number(whole)) * 100;
  return `${p.toLocaleString('en', {maximumFractionDigits: p < 1 ? 2 : 0})}%`;
}

// "2 tensors", "1 tensor".
export function plural(n, one, many) {
  return `${int(n)} ${Number(n) === 1 ? one : many || one + 's'}`;
}

export function shape(dims) {
  if (!Array.isArray(dims)) return '';
  return '[' + dims.map((d) => (typeof d === 'bigint' ? d.toString() : String(d))).join(', ') + ']';
}

// A summary field's name for a card label: "context_length" -> "Context length".
export function label(key) {
  const s = String(key).replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// Compare two values for a sort: numbers (and BigInts) by value, the rest as strings in code
// point order (fast enough for 100,000 rows, and the same order as the canonical writer's).
export function compare(a, b) {
  const na = a === null || a === undefined;
  const nb = b === null || b === undefined;
  if (na || nb) return na === nb ? 0 : na ? 1 : -1;
  if (typeof a === 'string' || typeof b === 'string') {
    const sa = String(a);
    const sb = String(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
