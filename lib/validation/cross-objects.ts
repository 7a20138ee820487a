import { ObjectModel, ResolvedWebhook, selectorOverlaps, webhookLabel } from '../model';
import type { ValidationIssue } from './issues';

/*
 * The checks of `mlplatform validate` that look at several objects together, over the whole
 * input: what synth proves of its own output (lib/checks.ts), for any set of manifests. They
 * read the facts of lib/model.ts, built from the input's objects alone: what only a platform
 * knows (the fields its controllers change at run time) is not there, and a manifest set may
 * rely on objects another repository installs, so only what the input itself gets wrong is an
 * error.
 */

/** The rule ids of the cross-object checks, with what each covers (the per-object ones are RULES, lib/validation/rules.ts). */
export const CROSS_OBJECT_RULES = {
  'K8S-WEBHOOK-BACKEND': 'a webhook or conversion webhook whose clientConfig.service is not in the input, lacks the port, selects no workload (or several), or targets a port no container declares (synth: MLP020)',
  'K8S-WEBHOOK-CA': 'a CA injection naming a Certificate not in the input, or a Service without the serving-cert annotation; a warning for a webhook with no CA source at all (synth: MLP021)',
  'K8S-ROLE-REF': 'a RoleBinding or ClusterRoleBinding whose Role or ClusterRole is not in the input (nor a Kubernetes default role)',
  'K8S-SERVICE-ACCOUNT': 'a pod template that runs as a ServiceAccount not in the input',
  'K8S-SELECTOR-OVERLAP': 'a Service or PodDisruptionBudget selecting the pods of several workloads, or a workload selector matching another workload\'s pods (synth: MLP024)',
} as const;

/** A document of the input, as lib/validation/manifests.ts reads it. */
interface Document {
  readonly object: unknown;
}

/** One cross-object problem: the index of the document it is about, and the issue. */
export interface CrossObjectIssue {
  readonly index: number;
  readonly issue: ValidationIssue;
}

interface Entry {
  readonly json: any;
  readonly index: number;
}

/**
 * ClusterRoles every Kubernetes cluster has (the API server's bootstrap policy): user-facing
 * roles and the `system:` ones. A binding may reference them without the input holding them.
 */
const DEFAULT_CLUSTER_ROLES = new Set(['cluster-admin', 'admin', 'edit', 'view']);

/** Whether a Role is one the API server's bootstrap policy makes in kube-system or kube-public. */
const defaultRole = (namespace: unknown, name: string): boolean =>
  (namespace === 'kube-system' || namespace === 'kube-public') && (name === 'extension-apiserver-authentication-reader' || name.startsWith('system:'));

const isObject = (o: unknown): o is Record<string, any> => o !== null && typeof o === 'object' && !Array.isArray(o);
const named = (j: any): string => `${j.kind} ${j.metadata?.namespace ? `${j.metadata.namespace}/` : ''}${j.metadata?.name}`;

/**
 * The cross-object problems of the input:
 * - K8S-WEBHOOK-BACKEND (synth's MLP020): a webhook or conversion webhook whose
 *   clientConfig.service (a webhook called by url is not checked) is not in the input, lacks the port, selects no workload of the
 *   input (or several), or targets a port no container of the workload declares;
 * - K8S-WEBHOOK-CA (MLP021): a CA injection that names what is not in the input (a
 *   cert-manager Certificate; a Service without OpenShift's serving-cert annotation) is an
 *   error; no CA source at all is a warning, unless an Argo CD Application of the input says
 *   the caBundle is patched at run time (ignoreDifferences);
 * - K8S-ROLE-REF: a RoleBinding or ClusterRoleBinding whose Role or ClusterRole is not in the
 *   input (the roles Kubernetes' bootstrap policy makes are always there: cluster-admin,
 *   admin, edit, view, `system:` ones, kube-system's extension-apiserver-authentication-reader);
 * - K8S-SERVICE-ACCOUNT: a pod template that runs as a ServiceAccount not in the input;
 * - K8S-SELECTOR-OVERLAP (MLP024): a Service or PodDisruptionBudget that selects the pods of
 *   several workloads of the input, or a workload whose selector matches another's pods.
 */
export function crossObjectIssues(docs: readonly Document[]): CrossObjectIssue[] {
  const entries: Entry[] = [];
  docs.forEach((d, index) => {
    if (isObject(d.object) && typeof d.object.kind === 'string' && typeof d.object.apiVersion === 'string') entries.push({ json: d.object, index });
  });
  const model = new ObjectModel<Entry>(entries, { objectsName: 'the input' });
  const out: CrossObjectIssue[] = [];
  const add = (e: Entry, rule: string, path: string, message: string, severity?: 'warning') => out.push({ index: e.index, issue: { rule, path, message, ...(severity ? { severity } : {}) } });

  // Webhooks: backend and CA source.
  const patchedAtRunTime = caBundlesIgnoredByArgoCd(entries);
  for (const w of model.webhooks) {
    // A webhook called by URL is outside the cluster: nothing in the input to check it against (its CA may be a public one).
    if (!isObject(w.clientConfig?.service)) continue;
    const where = webhookPath(w);
    if (w.backend.problem) {
      add(w.owner, 'K8S-WEBHOOK-BACKEND', `${where}.service`, `${webhookLabel(w)} ${w.backend.problem}; ` +
        'add the Service and the workload behind it to the input, or point clientConfig.service at the Service that serves this webhook');
    }
    if (w.caSource) continue;
    const inject = w.annotations['cert-manager.io/inject-ca-from'];
    if (inject) {
      add(w.owner, 'K8S-WEBHOOK-CA', 'metadata.annotations.cert-manager.io/inject-ca-from',
        `${webhookLabel(w)}: cert-manager.io/inject-ca-from names Certificate ${inject}, which is not in the input; add the Certificate (cert-manager.io/v1) or name the one that signs the webhook's serving certificate`);
    } else if (w.annotations['service.beta.openshift.io/inject-cabundle'] === 'true') {
      const svc = w.clientConfig?.service;
      add(w.owner, 'K8S-WEBHOOK-CA', 'metadata.annotations.service.beta.openshift.io/inject-cabundle',
        `${webhookLabel(w)}: OpenShift injects the service CA, but Service ${svc?.namespace}/${svc?.name} has no service.beta.openshift.io/serving-cert-secret-name annotation, so no serving certificate signed by it is made; annotate the Service`);
    } else if (!patchedAtRunTime.has(`${w.owner.json.kind}/${w.owner.json.metadata?.name}`)) {
      add(w.owner, 'K8S-WEBHOOK-CA', `${where}.caBundle`,
        `${webhookLabel(w)} has no CA source in the input: no caBundle, no cert-manager.io/inject-ca-from, no OpenShift service CA injection; unless its backend writes the caBundle at run time (a self-rotating certificate), the API server cannot verify it: add one`, 'warning');
    }
  }

  // RBAC: the roles bindings reference.
  for (const b of model.bindings) {
    const ref = b.json.roleRef;
    if (!isObject(ref) || typeof ref.name !== 'string') continue;
    if (ref.kind === 'Role' && b.json.kind === 'RoleBinding' && !model.role(b.json.metadata?.namespace, ref.name) && !defaultRole(b.json.metadata?.namespace, ref.name)) {
      add(b, 'K8S-ROLE-REF', 'roleRef.name', `${named(b.json)} binds Role ${b.json.metadata?.namespace}/${ref.name}, which is not in the input: the binding grants nothing; add the Role in namespace ${b.json.metadata?.namespace} or fix roleRef.name`);
    } else if (ref.kind === 'ClusterRole' && !model.clusterRole(ref.name) && !DEFAULT_CLUSTER_ROLES.has(ref.name) && !ref.name.startsWith('system:')) {
      add(b, 'K8S-ROLE-REF', 'roleRef.name', `${named(b.json)} binds ClusterRole ${ref.name}, which is not in the input nor a Kubernetes default ClusterRole: the binding grants nothing; add the ClusterRole or fix roleRef.name`);
    }
  }

  // ServiceAccounts pod templates run as.
  for (const e of entries) {
    const template = podTemplateOf(e.json);
    if (!template) continue;
    const account = template.spec.serviceAccountName ?? template.spec.serviceAccount;
    const namespace = e.json.metadata?.namespace;
    if (typeof account !== 'string' || account === 'default' || typeof namespace !== 'string' || model.serviceAccount(namespace, account)) continue;
    add(e, 'K8S-SERVICE-ACCOUNT', `${template.path}.serviceAccountName`, `${named(e.json)} runs as ServiceAccount ${namespace}/${account}, which is not in the input: its pods are not created until it exists; add the ServiceAccount or fix serviceAccountName`);
  }

  // Selectors that pick other workloads' pods (NetworkPolicies may select several on purpose).
  const selecting = entries.filter((e) => e.json.kind !== 'NetworkPolicy');
  for (const o of selectorOverlaps(selecting.map((e) => e.json))) add(selecting[o.index], 'K8S-SELECTOR-OVERLAP', 'spec.selector', o.message);

  return out.sort((a, b) => a.index - b.index);
}

/** Where in its object a webhook's clientConfig is (webhooks[i].clientConfig, or the CRD's conversion). */
function webhookPath(w: ResolvedWebhook<Entry>): string {
  if (w.type === 'conversion') return 'spec.conversion.webhook.clientConfig';
  const hooks: ReadonlyArray<{ name?: unknown } | undefined> = Array.isArray(w.owner.json.webhooks) ? w.owner.json.webhooks : [];
  const i = hooks.findIndex((x) => x?.name === w.name);
  return `webhooks[${i}].clientConfig`;
}

/** The pod template of a workload kind or CronJob, with where it is. */
function podTemplateOf(j: any): { spec: any; path: string } | undefined {
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'].includes(j.kind) && isObject(j.spec?.template?.spec)) return { spec: j.spec.template.spec, path: 'spec.template.spec' };
  if (j.kind === 'CronJob' && isObject(j.spec?.jobTemplate?.spec?.template?.spec)) return { spec: j.spec.jobTemplate.spec.template.spec, path: 'spec.jobTemplate.spec.template.spec' };
  if (j.kind === 'Pod' && j.apiVersion === 'v1' && isObject(j.spec)) return { spec: j.spec, path: 'spec' };
  return undefined;
}

/** Kind/name of the webhook configurations whose caBundle an Argo CD Application of the input ignores (patched at run time). */
function caBundlesIgnoredByArgoCd(entries: readonly Entry[]): Set<string> {
  const out = new Set<string>();
  for (const e of entries) {
    if (e.json.kind !== 'Application' || !String(e.json.apiVersion).startsWith('argoproj.io/')) continue;
    for (const d of Array.isArray(e.json.spec?.ignoreDifferences) ? e.json.spec.ignoreDifferences : []) {
      const paths = [...(d?.jsonPointers ?? []), ...(d?.jqPathExpressions ?? [])].map(String);
      if (typeof d?.kind === 'string' && typeof d?.name === 'string' && paths.some((p) => p.endsWith('caBundle'))) out.add(`${d.kind}/${d.name}`);
    }
  }
  return out;
}
