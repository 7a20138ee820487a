/* eslint-disable no-console */
// Developer tool (never run by tests or synth): starts a real kube-apiserver (envtest
// assets in KUBEBUILDER_ASSETS), reads its OpenAPI v3 for the built-in groups, and writes the
// schema annotations of the core types that @kubernetes/client-node's metadata lacks into
// imports/k8s/core-openapi.json: per OpenAPI definition, the list types and list-map keys of
// its fields, its map type, its required fields and field defaults. scripts/gen-core-types.mjs
// merges them into imports/k8s/core-types.json (offline; this file is the committed data).
//
//   KUBEBUILDER_ASSETS=/path/to/k8s-1.28.7-linux-amd64 npx ts-node --transpile-only scripts/fetch-core-openapi.ts
import { mkdirSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { startApiServer } from '../test/support/apiserver';

interface OpenApiSchema {
  'type'?: string;
  'required'?: string[];
  'properties'?: Record<string, OpenApiSchema>;
  'items'?: OpenApiSchema;
  'allOf'?: OpenApiSchema[];
  'default'?: unknown;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
}

/** One definition's annotations, as gen-core-types.mjs reads them. */
interface Annotations {
  required?: string[];
  mapType?: string;
  listTypes?: Record<string, string>;
  listMapKeys?: Record<string, string[]>;
  defaults?: Record<string, unknown>;
}

async function main(): Promise<void> {
  const server = await startApiServer({ webhookAdmission: false });
  try {
    const client = server.kubeConfig;
    const opts: { headers?: Record<string, string>; ca?: Buffer } = {};
    await client.applyToHTTPSOptions(opts as never);
    const get = async (path: string): Promise<unknown> => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const https = require('https') as typeof import('https');
      return new Promise((resolve, reject) => {
        https.get(`${server.url}${path}`, opts, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => { body += d; });
          res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${path}: HTTP ${res.statusCode}`))));
        }).on('error', reject);
      });
    };
    const index = await get('/openapi/v3') as { paths: Record<string, unknown> };
    const groups = Object.keys(index.paths).filter((p) => /^(api\/v1|apis\/[^/]+\/[^/]+)$/.test(p) && !p.includes('apiextensions') && !p.includes('apiregistration')).sort();
    const defs: Record<string, Annotations> = {};
    for (const g of groups) {
      const doc = await get(`/openapi/v3/${g}`) as { components?: { schemas?: Record<string, OpenApiSchema> } };
      for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
        if (!name.startsWith('io.k8s.api.') && !name.startsWith('io.k8s.apimachinery.pkg.apis.meta.v1.')) continue;
        if (defs[name]) continue;
        const a: Annotations = {};
        if (schema.required?.length) a.required = [...schema.required].sort();
        if (schema['x-kubernetes-map-type']) a.mapType = schema['x-kubernetes-map-type'];
        for (const [field, p] of Object.entries(schema.properties ?? {}).sort(([x], [y]) => (x < y ? -1 : 1))) {
          const lt = p['x-kubernetes-list-type'];
          if (lt === 'map' && p['x-kubernetes-list-map-keys']) (a.listMapKeys ??= {})[field] = p['x-kubernetes-list-map-keys'];
          else if (lt) (a.listTypes ??= {})[field] = lt;
          if (p.default !== undefined) (a.defaults ??= {})[field] = p.default;
        }
        if (Object.keys(a).length) defs[name] = a;
      }
    }
    const out = {
      generatedBy: 'scripts/fetch-core-openapi.ts (needs KUBEBUILDER_ASSETS); do not edit',
      source: `kube-apiserver ${server.version} /openapi/v3 (${groups.length} group versions)`,
      definitions: Object.fromEntries(Object.entries(defs).sort(([x], [y]) => (x < y ? -1 : 1))),
    };
    const target = join(process.cwd(), 'imports', 'k8s', 'core-openapi.json');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, JSON.stringify(out, null, 0).replace(/\},"/g, '},\n"') + '\n');
    console.log(`wrote ${Object.keys(defs).length} definitions to ${target}`);
  } finally {
    await server.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
