#!/usr/bin/env node
// Validates Kubernetes objects against the schemas of the Kubernetes OpenAPI (kubernetes-models,
// pinned in package.json): types, required fields, enums, formats. Reads a JSON array of objects
// on standard input; prints one line per object; exits 1 when any is invalid or of an unknown
// apiVersion/kind. Unknown fields are not refused by these schemas (test_kubernetes.py reads
// every field it relies on by its exact name).
"use strict";
const fs = require("fs");

function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : [null, apiVersion];
  const module = ["kubernetes-models", group, version, kind].filter(Boolean).join("/");
  return require(module)[kind];
}

const objects = JSON.parse(fs.readFileSync(0, "utf8"));
let failed = 0;
for (const object of objects) {
  const what = `${object.apiVersion} ${object.kind} ${object.metadata && object.metadata.name}`;
  try {
    const Model = modelFor(object.apiVersion, object.kind);
    new Model(object).validate();
    console.log(`valid   ${what}`);
  } catch (e) {
    failed++;
    console.log(`INVALID ${what}: ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);
