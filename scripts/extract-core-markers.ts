/* eslint-disable no-console */
// Developer tool (never run by tests or synth): reads the markers of the Kubernetes API Go
// types (k8s.io/api, a checkout at the release @kubernetes/client-node is generated from) that
// controller-gen carries into CRDs embedding those types, and that neither client-node's
// metadata nor an older API server's OpenAPI has: +listType, +listMapKey, +structType and
// +default on fields. Writes imports/k8s/core-markers.json; scripts/gen-core-types.mjs merges
// it into imports/k8s/core-types.json (offline; this file is the committed data).
//
//   git clone --depth 1 --branch v0.34.1 https://github.com/kubernetes/api /tmp/k8s-api
//   npx ts-node --transpile-only scripts/extract-core-markers.ts /tmp/k8s-api v0.34.1
//
// Only facts are taken (field name, marker, value); the scan reads each struct's field lines
// and the `// +marker` comment lines right above them (the layout gofmt gives these files).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

interface Markers {
  listTypes?: Record<string, string>;
  /** Map fields marked +mapType=atomic. */
  mapTypes?: Record<string, string>;
  listMapKeys?: Record<string, string[]>;
  mapType?: string;
  defaults?: Record<string, unknown>;
}

interface Struct extends Markers {
  inline: string[];
}

const [dir, release] = process.argv.slice(2);
if (!dir || !release || !existsSync(join(dir, 'core', 'v1', 'types.go'))) {
  console.error('usage: extract-core-markers.ts <k8s.io/api checkout> <its tag, e.g. v0.34.1>');
  process.exit(2);
}

const FIELD = /^\s+(\w+)\s+(\S+)\s+`json:"([^"]*)"/;
const EMBED = /^\s+(\w+)\s+`json:",inline"/;

function scan(text: string): Map<string, Struct> {
  const out = new Map<string, Struct>();
  let comments: string[] = [];
  let current: Struct | undefined;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('//')) {
      comments.push(t.slice(2).trim());
      continue;
    }
    const start = /^type (\w+) struct \{/.exec(line);
    if (start) {
      current = { inline: [] };
      if (comments.some((c) => c === '+structType=atomic' || c === '+mapType=atomic')) current.mapType = 'atomic';
      out.set(start[1], current);
      comments = [];
      continue;
    }
    if (current && line.startsWith('}')) current = undefined;
    if (current) {
      const e = EMBED.exec(line);
      const f = FIELD.exec(line);
      if (e) {current.inline.push(e[1]);} else if (f) {
        const name = f[3].split(',')[0];
        if (name) {
          for (const c of comments) {
            let m: RegExpExecArray | null;
            if ((m = /^\+listType=(atomic|set|map)$/.exec(c))) (current.listTypes ??= {})[name] = m[1];
            else if ((m = /^\+mapType=(atomic|granular)$/.exec(c)) && f[2].startsWith('map[')) (current.mapTypes ??= {})[name] = m[1];
            else if ((m = /^\+listMapKey=(\w+)$/.exec(c))) ((current.listMapKeys ??= {})[name] ??= []).push(m[1]);
            else if ((m = /^\+default=(.+)$/.exec(c)) && !m[1].startsWith('ref(')) (current.defaults ??= {})[name] = JSON.parse(m[1]);
          }
        }
      }
    }
    comments = [];
  }
  return out;
}

/** A struct's markers with those of the structs it inlines (Go's `json:",inline"`). */
function resolve(name: string, structs: Map<string, Struct>, seen: string[] = []): Markers {
  const s = structs.get(name);
  if (!s || seen.includes(name)) return {};
  const merged: Markers = {};
  for (const i of s.inline) {
    const m = resolve(i, structs, [...seen, name]);
    if (m.mapType) merged.mapType = m.mapType;
    for (const k of ['listTypes', 'mapTypes', 'listMapKeys', 'defaults'] as const) if (m[k]) merged[k] = { ...(merged[k] ?? {}), ...m[k] } as never;
  }
  if (s.mapType) merged.mapType = s.mapType;
  for (const k of ['listTypes', 'mapTypes', 'listMapKeys', 'defaults'] as const) if (s[k]) merged[k] = { ...(merged[k] ?? {}), ...s[k] } as never;
  return merged;
}

const definitions: Record<string, Markers> = {};
for (const group of readdirSync(dir).sort()) {
  const gdir = join(dir, group);
  if (!existsSync(gdir) || group.startsWith('.')) continue;
  let versions: string[];
  try { versions = readdirSync(gdir).filter((v) => /^v\d+((alpha|beta)\d+)?$/.test(v)).sort(); } catch { continue; }
  for (const v of versions) {
    const file = join(gdir, v, 'types.go');
    if (!existsSync(file)) continue;
    const structs = scan(readFileSync(file, 'utf8'));
    for (const name of [...structs.keys()].sort()) {
      const m = resolve(name, structs);
      if (Object.keys(m).length) definitions[`io.k8s.api.${group}.${v}.${name}`] = m;
    }
  }
}

const out = {
  generatedBy: 'scripts/extract-core-markers.ts; do not edit',
  source: `k8s.io/api ${release} (Go type markers)`,
  definitions,
};
const target = join(process.cwd(), 'imports', 'k8s', 'core-markers.json');
writeFileSync(target, JSON.stringify(out, null, 0).replace(/\},"/g, '},\n"') + '\n');
console.log(`wrote ${Object.keys(definitions).length} definitions to ${target}`);
