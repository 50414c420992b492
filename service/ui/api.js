// The service's API as the page uses it: the rule catalogue, a streamed upload to
// /v1/validate, and /v1/check-model.
import {parse} from './json.js';

// id -> {id, family, severity, title, help}. An id the catalogue does not know (a newer
// service, a new format) still renders: lookups fall back to its family, then to nothing.
export async function loadRules() {
  const rules = new Map();
  try {
    const res = await fetch('/v1/rules', {headers: {Accept: 'application/json'}});
    if (!res.ok) return rules;
    const body = await res.json();
    for (const r of body.rules || []) rules.set(r.id, r);
  } catch {
    // The page still works without titles and help.
  }
  return rules;
}

export function ruleInfo(rules, id) {
  if (rules.has(id)) return rules.get(id);
  const family = String(id).split('.')[0];
  return rules.get(family) || null;
}

// An answer of the service: the parsed body when it is JSON, its raw text (downloaded as is),
// the status, and a problem (RFC 9457) when it is one.
function answer(status, contentType, body, retryAfter) {
  const out = {status, text: body, json: null, problem: null, retryAfter: retryAfter || null};
  if (/json/.test(contentType || '')) {
    try {
      out.json = parse(body);
    } catch {
      out.json = null;
    }
  }
  if (/problem\+json/.test(contentType || '') && out.json) out.problem = out.json;
  return out;
}

// Streams `file` to /v1/validate. XMLHttpRequest sends a File from disk as it goes (the page
// never holds it), reports upload progress, and can be cancelled; fetch() cannot stream a
// request body over HTTP/1.1. Returns {done: Promise, cancel()}. The promise resolves to an
// answer, or to {cancelled} or {networkError} with the bytes sent so far.
export function validate(file, {name, format, onProgress, onSent}) {
  const xhr = new XMLHttpRequest();
  const query = new URLSearchParams({name, format: format || 'auto', tensors: 'true'});
  let sent = 0;
  const done = new Promise((resolve) => {
    xhr.upload.addEventListener('progress', (e) => {
      sent = e.loaded;
      onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    });
    xhr.upload.addEventListener('load', () => {
      sent = file.size;
      onSent?.();
    });
    xhr.addEventListener('load', () => {
      resolve({...answer(xhr.status, xhr.getResponseHeader('Content-Type'), xhr.responseText, xhr.getResponseHeader('Retry-After')), sent});
    });
    xhr.addEventListener('abort', () => resolve({cancelled: true, sent}));
    xhr.addEventListener('error', () => resolve({networkError: true, sent}));
    xhr.addEventListener('timeout', () => resolve({networkError: true, sent}));
  });
  xhr.open('POST', '/v1/validate?' + query.toString());
  xhr.setRequestHeader('Content-Type', 'application/octet-stream');
  xhr.send(file);
  return {done, cancel: () => xhr.abort()};
}

// POST /v1/check-model with a body the caller built as text (the reports verbatim).
export async function checkModel(bodyText) {
  try {
    const res = await fetch('/v1/check-model', {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: bodyText,
    });
    return answer(res.status, res.headers.get('Content-Type'), await res.text(), res.headers.get('Retry-After'));
  } catch {
    return {networkError: true};
  }
}

// The formats the service's `format=` takes, read from its OpenAPI description, so a new
// format appears here without a page change. ["auto"] when it cannot be read.
export async function loadFormats() {
  try {
    const res = await fetch('/v1/openapi.json');
    const doc = await res.json();
    const params = doc.paths['/v1/validate'].post.parameters || [];
    for (const p of params) {
      const schema = p.$ref ? resolve(doc, p.$ref) : p;
      if (schema.name === 'format' && schema.schema && Array.isArray(schema.schema.enum)) {
        return {formats: schema.schema.enum.map(String), version: doc.info?.version || ''};
      }
    }
    return {formats: ['auto'], version: doc.info?.version || ''};
  } catch {
    return {formats: ['auto'], version: ''};
  }
}

function resolve(doc, ref) {
  let at = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) at = at?.[part];
  return at || {};
}
