import { architectureOf, architectureSections, GRAPH_DIRECTION } from './architecture';
import { Finding } from './checks';
import type { Component } from './component';
import { Controller, MetricsProtection } from './controller';
import { crdName, Gvk, gvkKey } from './crd';
import { kubernetesRangeText } from './kubernetes-version';
import { deviationReportLines } from './parity';
import { PlatformModel } from './platform';
import { modelOf } from './platform-model';
import { GeneratedValue, readCommand, SecretEncoding } from './secrets';
import { securityExceptionsOf } from './security';

/** The component whose CRDs serve a group/kind (lib/model.ts). */
export function kindOwner(m: PlatformModel, gvk: Gvk): Component | undefined {
  return modelOf(m).kindOwners.get(gvkKey(gvk));
}

/** CRDs that several components declare: name, the component that emits it, the others (lib/model.ts). */
export function sharedCrds(m: PlatformModel): Array<[string, Component, Component[]]> {
  return [...modelOf(m).sharedCrds];
}

/** Object counts by kind, sorted by kind (lib/model.ts). */
export function objectCounts(m: PlatformModel): Record<string, number> {
  return { ...modelOf(m).objectCounts };
}

/**
 * Declared exceptions to the safety rules (MLP050 Pod Security, MLP051 RBAC wildcards,
 * MLP053 webhook namespaces), one line per object and check, with the reason.
 */
export function securityExceptionLines(m: PlatformModel): string[] {
  const out: string[] = [];
  for (const o of m.objects) {
    const ns = o.json.metadata?.namespace ? `${o.json.metadata.namespace}/` : '';
    for (const e of securityExceptionsOf(o.apiObject)) {
      out.push(`${o.json.kind} ${ns}${o.json.metadata?.name}${e.subject ? ` (webhook ${e.subject})` : ''}: ${e.check}: ${e.reason}`);
    }
  }
  return out;
}

/**
 * Webhook wiring, one line per webhook:
 * type configuration/webhook -> service:port -> workload/containerPort -> CA source -> failurePolicy.
 * Webhook names repeat across configurations (Kueue, AppWrapper and CodeFlare each have a
 * vappwrapper.kb.io), so each line names the configuration first (the CRD, for conversion).
 */
export function wiringTable(m: PlatformModel): string[] {
  return modelOf(m).webhooks.map((w) => {
    const b = w.backend;
    const svc = w.clientConfig?.service;
    return [
      w.type === 'conversion' ? `conversion CRD ${w.name}` : `${w.type} ${w.owner.json.metadata.name}/${w.name}`,
      svc ? `${svc.namespace}/${svc.name}:${svc.port ?? 443}${svc.path ?? ''}` : 'no service',
      b.workload ? `${b.workload.json.kind}/${b.workload.json.metadata.name}:${b.containerPort}` : `UNRESOLVED (${b.problem})`,
      w.caSource ?? 'NO CA SOURCE',
      w.failurePolicy,
    ].join(' -> ');
  });
}

/**
 * One row per controller: how its metrics are served and, for plain HTTP on a Service port,
 * whether the platform's fence admits the port only from the monitoring namespace.
 */
export function metricsTable(m: PlatformModel): string[] {
  const fence = m.platform.metricsFence;
  const lines = ['| controller | metrics | port | fence |', '| --- | --- | --- | --- |'];
  const cell = (t: string) => t.replace(/\|/g, '\\|');
  for (const c of m.components) {
    for (const ctl of c.node.findAll().filter((x): x is Controller => x instanceof Controller)) {
      const mt = ctl.metrics;
      if (!mt) {
        lines.push(`| ${ctl.namespace}/${ctl.name} | no metrics endpoint | - | - |`);
        continue;
      }
      const how = `${mt.protection}${mt.authenticated ? ' (authenticated and authorized)' : ''}${mt.reason ? ` (opt-out: ${mt.reason})` : ''}`;
      const fenced = ctl.metricsFence
        ? `NetworkPolicy ${ctl.metricsFence.name}: only from namespace ${fence.monitoringNamespace}`
        : mt.protection !== MetricsProtection.INSECURE ? 'not needed' : 'OFF (metricsFence.enabled: false): open to every pod';
      lines.push(`| ${ctl.namespace}/${ctl.name} | ${cell(how)} | ${mt.port} | ${cell(fenced)} |`);
    }
  }
  return lines;
}

/** Apply order, one line per object: phase, kind, [namespace/]name, component. */
export function applyOrder(m: PlatformModel): string[] {
  return m.objects.map((o) => {
    const ns = o.json.metadata?.namespace ? `${o.json.metadata.namespace}/` : '';
    return `${o.phase}  ${o.json.kind} ${ns}${o.json.metadata?.name}  (${o.component.componentName})`;
  });
}

/** A Markdown report of the platform: what a reviewer of the GitOps change wants to see. */
/** The "Prerequisites" section: what the platform expects on the cluster, and the settings its components need of it. */
export function prerequisiteLines(m: PlatformModel): string[] {
  const lines = ['## Prerequisites', ''];
  if (!m.platform.prerequisites.length) return [...lines, 'None: the platform installs everything it uses.'];
  lines.push('Installed on the cluster before the platform (apply checks that their APIs are served):', '');
  for (const p of m.platform.prerequisites) {
    lines.push(`- ${p.name}${p.description ? `: ${p.description}` : ''}`);
    for (const c of m.components) {
      for (const s of c.prerequisiteSettings.filter((x) => x.prerequisite === p.name)) lines.push(`  - needed by ${c.componentName}: ${s.setting}`);
    }
  }
  const declared = new Set(m.platform.prerequisites.map((p) => p.name));
  for (const c of m.components) {
    for (const s of c.prerequisiteSettings.filter((x) => !declared.has(x.prerequisite))) lines.push(`- ${s.prerequisite} (not declared by the platform), needed by ${c.componentName}: ${s.setting}`);
  }
  return lines;
}

/** How a generated key's value is made, in words (never a value, except a `fixed` one, which is no secret). */
function generatedText(v: GeneratedValue): string {
  if (v.type === 'random') return v.encoding === SecretEncoding.ALPHANUMERIC ? `${v.length} random letters and digits` : `${v.length} random bytes, ${v.encoding}`;
  if (v.type === 'same-as') return `the value of ${v.source.namespace}/${v.source.name} key ${v.source.key}`;
  if (v.type === 'bcrypt') return `the bcrypt hash (cost ${v.cost}) of ${v.source.namespace}/${v.source.name} key ${v.source.key}`;
  return `'${v.value}'`;
}

/**
 * The "Secrets" section: the Secrets the workloads read that the output does not contain,
 * which `mlplatform apply` generates and which the user provides (with how).
 */
export function secretLines(m: PlatformModel): string[] {
  const lines = ['## Secrets', ''];
  if (!m.secrets.length) return [...lines, 'None: the workloads read no Secret beyond those in the output (and those cert-manager or the service CA make).'];
  const user = m.secrets.filter((s) => s.source === 'user');
  const generated = m.secrets.filter((s) => s.source === 'generated');
  lines.push('The output contains no secret value. These Secrets must exist before the workloads that read them start.', '');
  if (user.length) {
    lines.push('Provided by you (`mlplatform apply` refuses to start without them):', '');
    for (const s of user) lines.push(`- ${s.namespace}/${s.name} (keys ${s.keys.join(', ')}): ${s.purpose}; read by ${s.neededBy.join(', ') || 'no workload'}. Create it: \`${s.hint}\``);
    lines.push('');
  }
  if (generated.length) {
    lines.push('Generated by `mlplatform apply` when missing (crypto-random; an existing Secret is never changed, and prune leaves them):', '');
    for (const s of generated) {
      const keys = Object.entries(s.generate).map(([k, v]) => `${k}: ${generatedText(v)}`).join('; ');
      lines.push(`- ${s.namespace}/${s.name} (${keys}): ${s.purpose}; ${s.neededBy.length ? `read by ${s.neededBy.join(', ')}` : 'read by people'}${s.forPeople ? `; read it with \`${readCommand(s)}\`` : ''}`);
    }
    lines.push('', 'Without `mlplatform apply` (Argo CD, Flux, kubectl apply of the phase folders), create them the same way first, '
      + 'e.g. as Sealed Secrets or with the External Secrets Operator from your secret store; keep shared values equal.');
  }
  return lines;
}

export function platformReport(m: PlatformModel, largeCrds: string[], warnings: Finding[] = []): string {
  const lines: string[] = [`# Platform ${m.platform.name}`, ''];
  lines.push('Generated by cdk8s-mlplatform; do not edit. Apply the phase folders in order, waiting for each to become ready.', '');
  lines.push('## Components in apply order', '');
  for (const c of m.components) lines.push(`1. ${c.componentName} (${c.constructor.name}, namespace ${c.namespaceName})`);
  lines.push('', ...prerequisiteLines(m));
  lines.push('', ...secretLines(m));
  lines.push('', '## Kubernetes versions', '', `The platform targets Kubernetes ${m.platform.kubernetesVersion} or newer (kubernetesVersion). What each component's release supports:`, '');
  for (const c of m.components) lines.push(`- ${c.componentName}: ${kubernetesRangeText(c.kubernetes)}: ${c.kubernetes.feature} (${c.kubernetes.source})`);
  // One direction with `mlplatform graph`: arrows point from a component to what it depends on.
  lines.push('', '## Dependency graph', '', `The ${GRAPH_DIRECTION}: \`-->\` needs a kind the other serves (applied after it); ` +
    '`-.->` needs it only at run time, needs infrastructure, or shares a CRD the other owns.', '', '```mermaid', 'graph LR');
  for (const c of m.components) {
    for (const r of c.requires) {
      const owner = modelOf(m).kindOwners.get(gvkKey(r));
      // A runtime-only requirement sets no apply order: drawn dotted.
      lines.push(`  ${c.componentName} ${r.runtimeOnly ? '-.->' : '-->'}|${r.group}/${r.kind}| ${owner ? owner.componentName : 'prerequisite'}`);
    }
    for (const infra of c.infrastructure) lines.push(`  ${c.componentName} -.-> ${infra.replace(/[^\w]/g, '_')}[${infra}]`);
  }
  for (const [crd, owner, users] of modelOf(m).sharedCrds) {
    for (const u of users) lines.push(`  ${u.componentName} -.->|shares ${crd}| ${owner.componentName}`);
  }
  lines.push('```', '', '## CRD ownership', '');
  const shared = new Map(modelOf(m).sharedCrds.map(([crd, , users]) => [crd, users]));
  for (const [crd, owner] of [...m.crdOwners.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const declaring = shared.get(crd);
    const using = m.components.filter((c) => c.usedCrds.some((u) => !u.bundledCopy && crdName(u.definition) === crd)).map((c) => c.componentName);
    const notes = [
      ...(declaring ? [`also declared by ${declaring.map((u) => u.componentName).join(', ')}, which use${declaring.length === 1 ? 's' : ''} this copy`] : []),
      ...(using.length ? [`also used, not emitted, by ${using.join(', ')}`] : []),
    ];
    lines.push(`- ${crd}: ${owner.componentName}${notes.length ? ` (${notes.join('; ')})` : ''}`);
  }
  lines.push('', '## Webhooks', '', 'type configuration/webhook -> service:port -> workload:containerPort -> CA source -> failurePolicy', '');
  for (const l of wiringTable(m)) lines.push(`- ${l}`);
  const runtime = m.components.flatMap((c) => c.runtimeWebhooks.map((w) => ({ c, w })));
  if (runtime.length) {
    lines.push('', 'Created at run time by an operator (not in the output; checked as intercepting their kinds once the operator runs):', '');
    for (const { c, w } of runtime) {
      const s = w.service;
      lines.push(`- ${w.type} ${w.configurationName}/${w.name} -> ${s.namespace}/${s.name}:${s.port}${s.path} -> created by Deployment ${c.namespaceName}/${w.createdBy} (${w.when}) -> ${w.failurePolicy ?? 'Fail'}`);
    }
  }
  lines.push('', '## Controller metrics', '', ...metricsTable(m));
  lines.push('', '## Safety exceptions', '');
  const exceptions = securityExceptionLines(m);
  lines.push(exceptions.length
    ? 'Every pod passes Pod Security "restricted", RBAC has no wildcards and fail-closed webhooks on built-in kinds skip kube-system and their own namespace, except (with upstream\'s reason):'
    : 'None: every pod passes Pod Security "restricted", RBAC has no wildcards and fail-closed webhooks on built-in kinds skip kube-system and their own namespace.');
  if (exceptions.length) lines.push('');
  for (const l of exceptions) lines.push(`- ${l}`);
  lines.push('', '## Deviations from upstream', '', ...deviationReportLines(m.components));
  lines.push('', '## Changed at run time', '');
  lines.push(m.runtimeChanges.length
    ? 'Controllers change these fields after apply; GitOps engines must ignore them (Argo CD ignoreDifferences).'
    : 'No controller changes emitted objects at run time.');
  if (m.runtimeChanges.length) lines.push('');
  for (const r of m.runtimeChanges) lines.push(`- ${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}: ${r.jsonPointers.join(', ')} (by ${r.by}: ${r.reason})`);
  lines.push('', '## Images', '');
  const images = new Set<string>();
  for (const { object: o, image } of modelOf(m).images) images.add(`${image} (${o.json.kind} ${o.json.metadata.name})`);
  for (const i of [...images].sort()) lines.push(`- ${i}`);
  lines.push('', '## Server-side apply', '');
  lines.push(largeCrds.length
    ? `These CRDs exceed 256 KiB, the limit of kubectl's last-applied annotation: apply with \`kubectl apply --server-side\` (Argo CD: ServerSideApply=true): ${largeCrds.join(', ')}.`
    : 'No object needs server-side apply.');
  lines.push('', '## Warnings', '');
  lines.push(warnings.length ? 'Checks that do not fail synth:' : 'No warnings.');
  if (warnings.length) lines.push('');
  for (const w of warnings) lines.push(`- [${w.rule}] ${w.path}: ${w.message}`);
  lines.push('', '## Object counts', '');
  for (const [k, v] of Object.entries(modelOf(m).objectCounts)) lines.push(`- ${k}: ${v}`);
  // The architecture page's sections that the ones above do not already show
  // (`mlplatform report` gives the whole page, as Markdown, JSON or SVG).
  lines.push('', ...architectureSections(architectureOf(m, largeCrds), 2, ['dependencies', 'webhooks', 'cold-apply', 'images']));
  return lines.join('\n') + '\n';
}
