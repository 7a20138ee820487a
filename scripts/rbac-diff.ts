/* eslint-disable no-console */
// Developer tool (never run by tests or synth): compares the RBAC each ServiceAccount of a
// synthesized platform holds with the roles upstream binds to the ServiceAccount of the same
// name, triple by triple (group, resource, verb), and lists what upstream grants that we do
// not, minus the triples a component documents as left out (its RBAC_LEFT_OUT export).
//
//   npx ts-node --transpile-only scripts/rbac-diff.ts <inventory.json> <platform module> <export> [<module with RBAC_LEFT_OUT>]
//
// <platform module> exports a function `(app) => Platform` named <export>.
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { App } from 'cdk8s';
import { Platform } from '../lib/platform';
import { allows, LeftOutRbac, PolicyRule } from '../lib/rbac';
import { buildPlatform } from '../lib/synth';

const [inventory, platformModule, exportName, leftOutModule] = process.argv.slice(2);
if (!exportName) {
  console.error('usage: rbac-diff.ts <inventory.json> <platform module> <export> [<module with RBAC_LEFT_OUT>]');
  process.exit(2);
}
const inv = JSON.parse(readFileSync(inventory, 'utf8'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const make = require(resolve(platformModule))[exportName] as (app: App) => Platform;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const leftOut: LeftOutRbac[] = leftOutModule ? require(resolve(leftOutModule)).RBAC_LEFT_OUT : [];
const model = buildPlatform(make(new App({ outdir: '/nonexistent' }))).model;

function roleRules(objs: any[], kind: string, name: string, ns?: string): PolicyRule[] {
  return objs.filter((o) => o.kind === kind && o.name === name && (kind === 'ClusterRole' || !ns || o.namespace === ns)).flatMap((o) => o.rules ?? []);
}

const ours = model.objects.map((o) => ({ ...o.json, name: o.json.metadata.name, namespace: o.json.metadata.namespace }));
const upstream = inv.rbac;
let missing = 0;
for (const sa of upstream.serviceAccounts) {
  const bound = (objs: any[]) => objs
    .filter((b) => (b.kind === 'ClusterRoleBinding' || b.kind === 'RoleBinding') && (b.subjects ?? []).some((s: any) => s.kind === 'ServiceAccount' && s.name === sa.name))
    .flatMap((b) => roleRules(objs, b.roleRef.kind, b.roleRef.name, b.namespace));
  const theirs = bound(upstream.roles.map((r: any) => r).concat(upstream.bindings));
  const mine = bound(ours);
  if (!ours.some((o) => o.kind === 'ServiceAccount' && o.name === sa.name)) {
    console.log(`${sa.name}: no ServiceAccount of that name in our output`);
    continue;
  }
  for (const r of theirs) {
    if (r.nonResourceURLs?.length) {
      for (const url of r.nonResourceURLs) {
        for (const verb of r.verbs) {
          if (!mine.some((m) => m.nonResourceURLs?.includes(url) && m.verbs.includes(verb))) { missing++; console.log(`${sa.name}: nonResourceURL ${url} ${verb}`); }
        }
      }
      continue;
    }
    for (const g of r.apiGroups ?? []) {
      for (const res of r.resources ?? []) {
        for (const verb of r.verbs) {
          const names = r.resourceNames?.length ? r.resourceNames : [undefined];
          for (const n of names) {
            if (allows(mine, g, res, verb, n)) continue;
            const why = leftOut.find((l) => l.serviceAccount === sa.name && l.group === g && l.resources.includes(res) && (!l.verbs || l.verbs.includes(verb)));
            if (why) continue;
            missing++;
            console.log(`${sa.name}: ${g || 'core'}/${res} ${verb}${n ? ` (${n})` : ''}`);
          }
        }
      }
    }
  }
}
console.log(`${missing} upstream triple(s) neither granted nor documented as left out`);
