// JSON from the service, with integers above 2^53 kept exact as BigInt (a shape [0, 2^63] is a
// valid tensor). Uses the reviver's source text where the browser gives it (Chrome 114+), and
// only when the text holds a number that long: a reviver makes a 10 MB report's parse 15 times
// slower.

let sourceTextWorks = null;

function probe() {
  try {
    let seen = false;
    JSON.parse('[1]', (k, v, context) => {
      if (context && typeof context.source === 'string') seen = true;
      return v;
    });
    return seen;
  } catch {
    return false;
  }
}

function revive(key, value, context) {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

// 2^53 has 16 digits: a shorter run of digits is always a safe integer.
const LONG_NUMBER = /\d{16}/;

export function parse(textValue) {
  if (!LONG_NUMBER.test(textValue)) return JSON.parse(textValue);
  if (sourceTextWorks === null) sourceTextWorks = probe();
  return sourceTextWorks ? JSON.parse(textValue, revive) : JSON.parse(textValue);
}

// JSON text for a value that may hold BigInts.
export function stringify(value, indent) {
  return JSON.stringify(value, (k, v) => (typeof v === 'bigint' ? JSON.rawJSON ? JSON.rawJSON(v.toString()) : Number(v) : v), indent);
}
