/* eslint-disable no-console */
// Developer tool (never run by tests or synth): compares the CRDs a module exports with a
// field outline of the upstream CRDs, to find fields, types and markers we got wrong.
//
//   npx ts-node --transpile-only scripts/outline-diff.ts <module exporting CRDS> <outline.txt> [crd-name]
//
// The module must export `CRDS: CrdDefinition[]`. The outline format is
// `path  type  markers` per field, one block per CRD (`# plural.group`) and version.
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { CrdDefinition, crdName, rootSchema } from '../lib/crd';
import { ArraySchema, MapSchema, ObjectSchema, Schema } from '../lib/schema/dsl';
import { JSONSchemaProps } from '../lib/schema/types';

type Lines = Map<string, { type: string; markers: Set<string> }>;

function typeOf(j: JSONSchemaProps): string {
  if (j['x-kubernetes-int-or-string']) return 'int-or-string';
  if (j.type === 'array') return '[]' + (j.items ? typeOf(j.items) : 'any');
  if (j.type === 'object' && j.additionalProperties && typeof j.additionalProperties === 'object') {
    const v = typeOf(j.additionalProperties);
    return `map[string]${v === 'int-or-string' || v === 'any' ? 'object' : v}`;
  }
  return j.type ?? 'any';
}

function markersOf(node: Schema, j: JSONSchemaProps, required: boolean): Set<string> {
  const m = new Set<string>();
  if (required) m.add('required');
  if (j.format) m.add(`format=${j.format}`);
  if (j.enum) m.add(`enum=${j.enum.join('|')}`);
  if (j.default !== undefined) m.add(`default=${JSON.stringify(j.default)}`);
  for (const k of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const) {
    if (j[k] !== undefined) m.add(`${k}=${j[k]}`);
  }
  if (j.pattern) m.add(`pattern=${j.pattern}`);
  if (j['x-kubernetes-list-type']) m.add(`list-type=${j['x-kubernetes-list-type']}`);
  if (j['x-kubernetes-list-map-keys']) m.add(`list-map-keys=${j['x-kubernetes-list-map-keys'].join(',')}`);
  if (j['x-kubernetes-map-type']) m.add(`map-type=${j['x-kubernetes-map-type']}`);
  if (j['x-kubernetes-preserve-unknown-fields']) m.add('preserve-unknown-fields');
  if (j['x-kubernetes-embedded-resource']) m.add('embedded-resource');
  if (j.nullable) m.add('nullable');
  if (j['x-kubernetes-validations']?.length) m.add(`cel-rules=${j['x-kubernetes-validations'].length}`);
  const obj = node instanceof ArraySchema ? node.items : node;
  if (obj instanceof ObjectSchema && obj.options.coreType) {
    m.add(`core=${obj.options.coreType}`);
    if (obj.options.coreExtra?.length) m.add(`extra=${[...obj.options.coreExtra].sort().join(',')}`);
  }
  return m;
}

function flatten(node: Schema, path: string, required: boolean, out: Lines): void {
  const j = node.toJson();
  if (path) out.set(path, { type: typeOf(j), markers: markersOf(node, j, required) });
  let inner: Schema = node;
  let childPath = path;
  if (node instanceof ArraySchema) {
    inner = node.items;
    childPath = `${path}[]`;
  } else if (node instanceof MapSchema) {
    inner = node.values;
    childPath = `${path}{}`;
  }
  if (!(inner instanceof ObjectSchema)) return;
  const core = inner.options.coreType;
  for (const [k, v] of Object.entries(inner.properties)) {
    // Fields of a core type are generated, so the outline does not list them.
    if (core && !(inner.options.coreExtra ?? []).includes(k)) continue;
    flatten(v, childPath ? `${childPath}.${k}` : k, v.isRequired, out);
  }
}

function parseOutline(text: string): Map<string, Lines> {
  const blocks = new Map<string, Lines>();
  let crd = '';
  let current: Lines | undefined;
  let previous: Lines | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('# ')) {
      crd = line.slice(2).trim();
      current = undefined;
    } else if (line.startsWith('version=')) {
      previous = current;
      current = new Map();
      blocks.set(`${crd} ${/version=(\S+)/.exec(line)![1]}`, current);
    } else if (line.startsWith('  (schema identical') && current && previous) {
      for (const [k, v] of previous) current.set(k, v);
    } else if (line.startsWith('  ') && current) {
      const [path, type, ...rest] = line.trim().split(/\s{2,}/);
      const markers = new Set<string>();
      const text2 = rest.join('  ').replace(/\(\d+\/\d+ of its fields\)/, '').trim();
      // Markers are space separated; default= and pattern= values may hold spaces.
      for (const tok of text2.match(/(?:[a-z-]+=(?:"[^"]*"|\[.*\](?=\s|$)|\{.*\}(?=\s|$)|\S+)|[a-z-]+)/gi) ?? []) markers.add(tok);
      current.set(path, { type, markers });
    }
  }
  return blocks;
}

function main(): void {
  const [modPath, outlinePath, only] = process.argv.slice(2);
  if (!modPath || !outlinePath) {
    console.error('usage: outline-diff.ts <module exporting CRDS> <outline.txt> [crd-name]');
    process.exit(2);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(resolve(modPath));
  const crds: CrdDefinition[] = mod.CRDS;
  const outline = parseOutline(readFileSync(outlinePath, 'utf8'));
  let problems = 0;
  for (const def of crds) {
    const name = crdName(def);
    if (only && name !== only) continue;
    for (const v of def.versions) {
      const key = `${name} ${v.name}`;
      const theirs = outline.get(key);
      if (!theirs) {
        console.log(`?? ${key}: not in the outline`);
        continue;
      }
      const ours: Lines = new Map();
      flatten(rootSchema(v.schema), '', false, ours);
      for (const k of ['apiVersion', 'kind', 'metadata']) ours.delete(k);
      for (const k of ['apiVersion', 'kind', 'metadata']) theirs.delete(k);
      const diffs: string[] = [];
      for (const [p, t] of theirs) {
        const o = ours.get(p);
        if (!o) {
          diffs.push(`  missing   ${p}  ${t.type}  ${[...t.markers].join(' ')}`);
          continue;
        }
        if (o.type !== t.type) diffs.push(`  type      ${p}: ours ${o.type}, upstream ${t.type}`);
        const miss = [...t.markers].filter((m) => !o.markers.has(m));
        const extra = [...o.markers].filter((m) => !t.markers.has(m));
        if (miss.length || extra.length) diffs.push(`  markers   ${p}: missing [${miss.join(' ')}] extra [${extra.join(' ')}]`);
      }
      for (const [p, o] of ours) if (!theirs.has(p)) diffs.push(`  extra     ${p}  ${o.type}  ${[...o.markers].join(' ')}`);
      console.log(`${diffs.length ? 'XX' : 'ok'} ${key}: ${theirs.size} upstream fields, ${diffs.length} differences`);
      for (const d of diffs) console.log(d);
      problems += diffs.length;
    }
  }
  process.exit(problems ? 1 : 0);
}

main();
