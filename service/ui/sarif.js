// SARIF 2.1.0 from the reports the page holds, in the shape `tensorgate check --format sarif`
// writes (core/src/report/sarif_report.cpp): the catalogue as tool.driver.rules, one artifact a
// file, each finding a result located by its byte offset. And the two ways out: a download and
// the clipboard.
import {stringify} from './json.js';

const LEVEL = {error: 'error', warning: 'warning', info: 'note'};

// A file name as a URI reference: unreserved characters and '/' stay, the rest is
// percent-encoded byte by byte (UTF-8), as the CLI's writer does.
export function pathUri(path) {
  let out = '';
  for (const byte of new TextEncoder().encode(String(path))) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~/]/.test(c) ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

// files: [{name, report}] where report is a /v1/validate or /v1/check-model answer.
export function toSarif(files, rules, version) {
  const descriptors = [...rules.values()].map((r) => ({
    id: r.id,
    shortDescription: {text: r.title},
    fullDescription: {text: r.help},
    defaultConfiguration: {level: LEVEL[r.severity] || 'warning'},
    properties: {family: r.family},
  }));
  const index = new Map(descriptors.map((d, i) => [d.id, i]));
  const results = [];
  files.forEach(({name, report}, artifact) => {
    const uri = pathUri(name);
    for (const f of report?.findings || []) {
      if (!index.has(f.rule)) {
        index.set(f.rule, descriptors.length);
        descriptors.push({id: String(f.rule), shortDescription: {text: String(f.rule)}, defaultConfiguration: {level: LEVEL[f.severity] || 'warning'}});
      }
      const location = {physicalLocation: {artifactLocation: {uri, index: artifact}}};
      if (f.offset !== null && f.offset !== undefined) location.physicalLocation.region = {byteOffset: f.offset, byteLength: 1};
      results.push({
        ruleId: String(f.rule),
        ruleIndex: index.get(f.rule),
        level: LEVEL[f.severity] || 'warning',
        message: {text: f.tensor !== null && f.tensor !== undefined ? `tensor "${f.tensor}": ${f.message}` : String(f.message)},
        locations: [location],
      });
    }
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {driver: {name: 'tensorgate', version: version || undefined, semanticVersion: version || undefined,
        informationUri: 'https://github.com/tensorgate/tensorgate', rules: descriptors}},
      invocations: [{executionSuccessful: true, toolExecutionNotifications: []}],
      artifacts: files.map(({name, report}) => ({location: {uri: pathUri(name)}, length: report?.bytes ?? undefined})),
      results,
    }],
  };
}

export function sarifText(files, rules, version) {
  return stringify(toSarif(files, rules, version), 2) + '\n';
}

// A file name for a download: the checked file's name without anything a file system or the
// browser would read as a path.
export function downloadName(name, suffix) {
  const base = String(name || 'report').split(/[\\/]/).pop().replace(/[^\w.\-]+/g, '_').slice(0, 120) || 'report';
  return `${base}${suffix}`;
}

export function download(textValue, filename, type) {
  const url = URL.createObjectURL(new Blob([textValue], {type}));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// Copies to the clipboard; false where the browser allows no clipboard (an http:// page on
// another host is not a secure context).
export async function copy(textValue) {
  if (!navigator.clipboard || !window.isSecureContext) return false;
  try {
    await navigator.clipboard.writeText(textValue);
    return true;
  } catch {
    return false;
  }
}
