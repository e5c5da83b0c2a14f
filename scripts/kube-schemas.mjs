// Converts Kubernetes's OpenAPI v2 document (k8s.io/kubernetes api/openapi-spec/swagger.json)
// and CustomResourceDefinitions (as JSON) into kubeconform's per-kind JSON schema layout:
// <dir>/<kind><suffix>.json, e.g. deployment-apps-v1.json, service-v1.json,
// servicemonitor-monitoring-v1.json; every $ref inlined ("standalone") and every object with
// declared properties closed with additionalProperties: false ("strict"), as the published
// schemas kubeconform downloads by default are. Called by scripts/kube-schemas.sh.
// Usage: node scripts/kube-schemas.mjs <swagger.json> <out dir> [crd.json ...]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const [swaggerFile, outDir, ...crdFiles] = process.argv.slice(2);
if (!swaggerFile || !outDir) {
  process.stderr.write(
    'usage: node scripts/kube-schemas.mjs <swagger.json> <out dir> [crd.json ...]\n',
  );
  process.exit(2);
}

/** The file name kubeconform derives from apiVersion and kind (pkg/registry/registry.go). */
function fileName(group, version, kind) {
  const apiVersion = group ? `${group}/${version}` : version;
  const [groupPart, versionPart] = apiVersion.split('/');
  let suffix = `-${groupPart.split('.')[0].toLowerCase()}`;
  if (versionPart) suffix += `-${versionPart.toLowerCase()}`;
  return `${kind.toLowerCase()}${suffix}.json`;
}

// Types whose JSON form is wider than the document's "type: string" says.
const special = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    oneOf: [{ type: 'string' }, { type: 'number' }],
  },
};

/** Copies a schema without documentation, with refs inlined and objects closed. */
function standalone(schema, definitions, seen) {
  if (Array.isArray(schema)) return schema.map((item) => standalone(item, definitions, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(/^#\/definitions\//, '');
    if (special[name]) return special[name];
    // A recursive type (JSONSchemaProps) stops at its second appearance: anything goes there.
    if (seen.has(name)) return {};
    const target = definitions[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    return standalone(target, definitions, new Set([...seen, name]));
  }
  const copy = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key.startsWith('x-kubernetes-')) continue;
    if (key === 'properties' || key === 'patternProperties' || key === 'definitions') {
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, standalone(sub, definitions, seen)]),
      );
    } else {
      copy[key] = standalone(value, definitions, seen);
    }
  }
  if (schema['x-kubernetes-int-or-string'] === true && !copy.anyOf && !copy.oneOf) {
    delete copy.type;
    copy.oneOf = [{ type: 'string' }, { type: 'integer' }];
  }
  if (copy.properties && copy.additionalProperties === undefined) {
    copy.additionalProperties = false;
  }
  return copy;
}

function write(name, schema) {
  writeFileSync(path.join(outDir, name), JSON.stringify(schema));
}

mkdirSync(outDir, { recursive: true });
const { definitions } = JSON.parse(readFileSync(swaggerFile, 'utf8'));
let count = 0;
for (const [name, definition] of Object.entries(definitions)) {
  for (const gvk of definition['x-kubernetes-group-version-kind'] ?? []) {
    const schema = standalone(definition, definitions, new Set([name]));
    write(fileName(gvk.group, gvk.version, gvk.kind), {
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...schema,
    });
    count++;
  }
}
for (const crdFile of crdFiles) {
  const crd = JSON.parse(readFileSync(crdFile, 'utf8'));
  for (const version of crd.spec.versions) {
    const schema = standalone(version.schema.openAPIV3Schema, {}, new Set());
    write(fileName(crd.spec.group, version.name, crd.spec.names.kind), {
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...schema,
    });
    count++;
  }
}
process.stderr.write(`kube-schemas: wrote ${count} schemas to ${outDir}\n`);
