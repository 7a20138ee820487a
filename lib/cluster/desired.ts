/**
 * What `mlplatform apply` and `mlplatform diff` bring to a cluster: the objects of one
 * platform in apply order, each with its phase and component, the prerequisites the
 * platform declares present, and the fields controllers change at run time. Made from a
 * built platform (the model knows everything) or from a synthesized folder (dist/<name>/:
 * phases and components from the file layout, prerequisites from the kinds nothing in the
 * folder serves).
 */
import * as path from 'path';
import { Prerequisite } from '../component';
import { Gvk } from '../crd';
import { IgnoredField, ignoredFields } from '../gitops/ignore';
import { MINIMUM_KUBERNETES_ANNOTATION, MINIMUM_KUBERNETES_FEATURE_ANNOTATION } from '../kubernetes-version';
import { Phase, PHASES } from '../phases';
import { PlatformModel } from '../platform';
import { ODH_OPERATOR, OPENSHIFT, PREREQUISITES } from '../prerequisites';
import { ReferencedSecret, referencedSecretsFromObjects } from '../secrets';
import { isBuiltinGroup } from '../validation/builtin-kinds';
import { ManifestDocument, readPath } from '../validation/manifests';

export type Json = Record<string, any>;

/** A manifest: what every object has, and anything else. */
/** The oldest Kubernetes a component of the platform runs on. */
export interface KubernetesNeed {
  readonly component: string;
  /** "1.32" */
  readonly min: string;
  /** What sets the minimum. */
  readonly feature: string;
}

export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [k: string]: any };
  readonly [k: string]: any;
}

export interface DesiredObject {
  readonly json: Manifest;
  readonly phase: string;
  /** The component that emits it ('namespaces' for the shared Namespace objects of a folder). */
  readonly component: string;
}

export interface DesiredPrerequisite {
  /** cert-manager, openshift, opendatahub-operator, ... (or 'unknown' for kinds a folder uses that nothing in it serves). */
  readonly name: string;
  /** The kinds it must serve: those the platform's objects use, else every kind it provides. */
  readonly kinds: readonly Gvk[];
}

export interface DesiredPlatform {
  readonly name: string;
  /** In apply order. */
  readonly objects: readonly DesiredObject[];
  readonly prerequisites: readonly DesiredPrerequisite[];
  /** Fields that change at run time (the Argo CD ignoreDifferences list). */
  readonly ignored: readonly IgnoredField[];
  /** The oldest Kubernetes each component runs on (from the model; from a synthesized folder, its CRDs' annotations). */
  readonly kubernetes?: readonly KubernetesNeed[];
  /**
   * The Secrets the workloads read that the output does not contain (PlatformModel.secrets):
   * apply generates or requires them. From the model; from a synthesized folder, the
   * annotation each declaring component's first object carries (lib/secrets.ts).
   */
  readonly secrets?: readonly ReferencedSecret[];
}

export const groupOf = (apiVersion: string): string => (String(apiVersion).includes('/') ? String(apiVersion).slice(0, String(apiVersion).lastIndexOf('/')) : '');
const versionOf = (apiVersion: string): string => String(apiVersion).slice(String(apiVersion).lastIndexOf('/') + 1);

/** `apps/v1 Deployment kserve/kserve-controller-manager` */
export function describeRef(o: Json): string {
  return `${o.apiVersion} ${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
}

/** group/kind/namespace/name: one object, whatever version it is written in. */
export function objectKey(o: Json): string {
  return `${groupOf(o.apiVersion)}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

/** The kinds the objects use that are neither built in nor served by a CRD among them. */
function externalKinds(objects: readonly Json[]): Gvk[] {
  const served = new Set<string>();
  for (const o of objects) {
    if (o.kind !== 'CustomResourceDefinition') continue;
    for (const v of o.spec?.versions ?? []) served.add(`${o.spec.group}/${v.name}/${o.spec.names?.kind}`);
  }
  const out = new Map<string, Gvk>();
  for (const o of objects) {
    if (isBuiltinGroup(String(o.apiVersion))) continue;
    const gvk = { group: groupOf(o.apiVersion), version: versionOf(o.apiVersion), kind: String(o.kind) };
    const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
    if (!served.has(key)) out.set(key, gvk);
  }
  return [...out.values()];
}

/** The desired state of a built platform. */
export function desiredFromModel(model: PlatformModel): DesiredPlatform {
  // The order the output files have: per phase, each Namespace once first, then the rest in model order.
  const seen = new Set<string>();
  const objects = PHASES.flatMap((phase) => {
    const inPhase = model.objects.filter((o) => o.phase === phase);
    const namespaces = inPhase.filter((o) => o.json.kind === 'Namespace' && !seen.has(o.json.metadata.name) && seen.add(o.json.metadata.name));
    return [...namespaces, ...inPhase.filter((o) => o.json.kind !== 'Namespace')];
  }).map((o) => ({ json: o.json as Manifest, phase: o.phase, component: o.component.componentName }));
  const kubernetes = model.components.map((c) => ({ component: c.componentName, min: c.kubernetes.min, feature: c.kubernetes.feature }));
  const prerequisites = attribute(externalKinds(objects.map((o) => o.json)), model.platform.prerequisites, true);
  return { name: model.platform.name, objects, prerequisites, ignored: ignoredFields(model), kubernetes, secrets: model.secrets };
}

/**
 * The used external kinds grouped by the prerequisite that provides each; kinds none
 * provides go to 'unknown'. With `all`, every candidate is listed, one whose kinds the
 * objects do not use with every kind it provides (its API must still be served).
 */
function attribute(used: readonly Gvk[], candidates: readonly Prerequisite[], all: boolean): DesiredPrerequisite[] {
  const claimed = new Set<string>();
  const out: DesiredPrerequisite[] = [];
  for (const p of candidates) {
    const kinds = used.filter((g) => !claimed.has(gvkKey(g)) && p.provides.some((q) => gvkKey(q) === gvkKey(g)));
    for (const k of kinds) claimed.add(gvkKey(k));
    if (kinds.length || all) out.push({ name: p.name, kinds: kinds.length ? kinds : p.provides });
  }
  const rest = used.filter((g) => !claimed.has(gvkKey(g)));
  if (rest.length) out.push({ name: 'unknown', kinds: rest });
  return out;
}

const gvkKey = (g: Gvk) => `${g.group}/${g.version}/${g.kind}`;

/**
 * The manifests of a synthesized platform folder: those under its phase folders
 * (00-foundation/, 10-controllers/...), not the GitOps entry points next to them (argocd/,
 * flux/, helm/), which are not the platform's objects. A folder without phase folders is
 * read whole.
 */
export function outputDocuments(dir: string, cwd: string): ManifestDocument[] {
  const docs = readPath(dir, cwd);
  const phases = new Set<string>(PHASES);
  const inPhase = docs.filter((d) => d.file.includes('/') && phases.has(d.file.split('/')[0]));
  return inPhase.length ? inPhase : docs;
}

/**
 * The desired state of a synthesized folder (dist/<name>/): objects in file order, phase from
 * the first path segment, component from the file name (`<component>.yaml`; a leading `<nn>-` of older outputs is dropped).
 */
export function desiredFromDir(dir: string, cwd: string): DesiredPlatform {
  const docs = outputDocuments(dir, cwd);
  const phases = new Set<string>(PHASES);
  const objects: DesiredObject[] = [];
  for (const d of docs) {
    const o = d.object as Json;
    if (!o || typeof o !== 'object' || !o.apiVersion || !o.kind || !o.metadata?.name) continue;
    const [first, ...rest] = d.file.split('/');
    const phase = rest.length && phases.has(first) ? first : Phase.CONTROLLERS;
    const component = path.basename(d.file).replace(/\.(ya?ml|json)$/i, '').replace(/^\d+-/, '');
    objects.push({ json: o as Manifest, phase, component });
  }
  // Phase order first (file order inside a phase): the same order the folder's kustomization lists.
  const sorted = PHASES.flatMap((p) => objects.filter((o) => o.phase === p));
  return {
    name: path.basename(path.resolve(cwd, dir)),
    objects: sorted,
    prerequisites: attribute(externalKinds(sorted.map((o) => o.json)), [...Object.values(PREREQUISITES), OPENSHIFT, ODH_OPERATOR], false),
    ignored: ignoredFields({ objects: sorted.map((o) => ({ json: o.json, phase: o.phase as Phase })), runtimeChanges: [] }),
    kubernetes: kubernetesNeedsOf(sorted),
    secrets: referencedSecretsFromObjects(sorted),
  };
}

/** The minimum Kubernetes of each component whose written CRDs carry it (lib/platform.ts stamps them). */
function kubernetesNeedsOf(objects: readonly DesiredObject[]): KubernetesNeed[] {
  const needs = new Map<string, KubernetesNeed>();
  for (const o of objects) {
    const a = o.json.metadata?.annotations ?? {};
    const min = a[MINIMUM_KUBERNETES_ANNOTATION];
    if (typeof min === 'string' && !needs.has(o.component)) needs.set(o.component, { component: o.component, min, feature: String(a[MINIMUM_KUBERNETES_FEATURE_ANNOTATION] ?? 'its CRDs') });
  }
  return [...needs.values()];
}
