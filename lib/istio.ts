import { IConstruct } from 'constructs';
import { Component } from './component';
import { labelSelectorMatches, PolicyTarget } from './network-policy';
import type { PlatformModel, PlatformObject } from './platform';
import { LabelSelector } from './webhook-server';

/**
 * Istio's sidecars as data: which pods get one, and the two synth-time checks that follow.
 *
 * Istio enforces an AuthorizationPolicy, PeerAuthentication or RequestAuthentication in the
 * proxy beside the pod: a pod without a sidecar ignores every policy that selects it, and the
 * YAML gives no hint. Injection is decided as istiod's injector webhooks decide it:
 * - a namespace labelled `istio-injection=enabled`, or `istio.io/rev=<revision>` (without
 *   `istio-injection`), injects every pod, unless the pod opts out with the label (or the
 *   older annotation) `sidecar.istio.io/inject: "false"`;
 * - a namespace labelled `istio-injection=disabled` injects no pod, whatever the pod asks;
 * - in any other namespace only pods labelled `sidecar.istio.io/inject: "true"` (or
 *   `istio.io/rev`) get one: the annotation is not enough there, as the webhook that reads
 *   it is never called.
 */

/** A finding of MLP061/MLP062 (the shape of lib/checks.ts' Finding, declared here so that lib/checks.ts stays the only one importing the other). */
export interface IstioFinding {
  readonly rule: 'MLP061' | 'MLP062';
  readonly path: string;
  readonly message: string;
}

/** The pod label (and older annotation) that overrides the namespace's injection. */
export const SIDECAR_INJECT_LABEL = 'sidecar.istio.io/inject';
/** The namespace label that turns injection on (`enabled`) or off (`disabled`). */
export const ISTIO_INJECTION_LABEL = 'istio-injection';
/** The namespace (or pod) label that names the Istio revision to inject. */
export const ISTIO_REVISION_LABEL = 'istio.io/rev';
/** The namespace labels that give every pod of the namespace a sidecar. */
export const ISTIO_INJECTION_ENABLED: Readonly<Record<string, string>> = Object.freeze({ [ISTIO_INJECTION_LABEL]: 'enabled' });

/** The pod label asking for (true) or refusing (false) a sidecar, as upstream's pod templates carry it. */
export function istioSidecarLabel(inject: boolean): Record<string, string> {
  return { [SIDECAR_INJECT_LABEL]: String(inject) };
}

/** Whether a pod gets a sidecar, and why (for messages). */
export interface SidecarDecision {
  readonly injected: boolean;
  readonly why: string;
}

/** Whether a namespace's labels turn injection on for its pods. */
export function namespaceInjects(labels: Readonly<Record<string, string>>): boolean {
  const injection = labels[ISTIO_INJECTION_LABEL];
  return injection === 'enabled' || (injection === undefined && labels[ISTIO_REVISION_LABEL] !== undefined);
}

/**
 * Whether istiod injects a sidecar into a pod with these labels and annotations in a
 * namespace with these labels (undefined: a namespace the platform does not create, whose
 * labels it cannot see).
 */
export function sidecarDecision(namespace: string, namespaceLabels: Readonly<Record<string, string>> | undefined,
  podLabels: Readonly<Record<string, string>>, podAnnotations: Readonly<Record<string, string>> = {}): SidecarDecision {
  const label = podLabels[SIDECAR_INJECT_LABEL];
  const optOut = label === 'false' || (label === undefined && podAnnotations[SIDECAR_INJECT_LABEL] === 'false');
  const optIn = label === 'true' || podLabels[ISTIO_REVISION_LABEL] !== undefined;
  if (namespaceLabels?.[ISTIO_INJECTION_LABEL] === 'disabled') {
    return { injected: false, why: `namespace ${namespace} is labelled ${ISTIO_INJECTION_LABEL}=disabled, which overrides every pod` };
  }
  if (optOut) return { injected: false, why: `its pod template opts out (${SIDECAR_INJECT_LABEL}: "false")` };
  if (optIn) return { injected: true, why: `its pod template asks for one (${label === 'true' ? `${SIDECAR_INJECT_LABEL}: "true"` : ISTIO_REVISION_LABEL})` };
  if (namespaceLabels === undefined) {
    return { injected: false, why: `namespace ${namespace} is not created by the platform, so its injection label is unknown, and the pod template does not ask for a sidecar` };
  }
  if (namespaceInjects(namespaceLabels)) return { injected: true, why: `namespace ${namespace} injects (${ISTIO_INJECTION_LABEL}=enabled or ${ISTIO_REVISION_LABEL})` };
  return { injected: false, why: `namespace ${namespace} has no ${ISTIO_INJECTION_LABEL}=enabled or ${ISTIO_REVISION_LABEL} label and the pod template does not ask for one` };
}

/**
 * A workload that takes its callers' identity on trust because Istio vouches for it (e.g.
 * multi-user Pipelines' API server and UI read the user from the kubeflow-userid header,
 * which only an AuthorizationPolicy keeps callers from setting). MLP062 then requires an
 * AuthorizationPolicy enforced on its pods (they have a sidecar) or a NetworkPolicy that
 * restricts who reaches them.
 */
export interface MeshAuthentication {
  /** The workload (its name and selector labels). */
  readonly target: PolicyTarget;
  /** What it trusts, e.g. "the user named in the kubeflow-userid header". */
  readonly trusts: string;
}

const declaredAuthentication = new WeakMap<IConstruct, MeshAuthentication[]>();

/** Declares that a component's workload relies on Istio for authenticating its callers (checked by MLP062). */
export function declareMeshAuthentication(component: Component, auth: MeshAuthentication): void {
  if (!auth.trusts.trim()) throw new Error(`${component.node.path}: declareMeshAuthentication ${auth.target.name}: trusts is empty; say what the workload takes on trust`);
  const list = declaredAuthentication.get(component) ?? [];
  list.push(auth);
  declaredAuthentication.set(component, list);
}

/** The workloads a component declared as relying on Istio for authentication. */
export function meshAuthenticationOf(component: Component): readonly MeshAuthentication[] {
  return declaredAuthentication.get(component) ?? [];
}

/** The Istio security kinds a sidecar enforces. */
const ISTIO_POLICY_KINDS = ['AuthorizationPolicy', 'PeerAuthentication', 'RequestAuthentication'];
const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'];

function isIstioPolicy(j: any): boolean {
  return typeof j.apiVersion === 'string' && j.apiVersion.startsWith('security.istio.io/') && ISTIO_POLICY_KINDS.includes(j.kind);
}

/** What the checks need from a model: namespace labels (first Namespace object per name, as synth writes it) and workloads by namespace. */
interface MeshIndex {
  readonly namespaceLabels: Map<string, Record<string, string>>;
  readonly workloads: Map<string, PlatformObject[]>;
}

const indexes = new WeakMap<PlatformModel, MeshIndex>();

function meshIndex(m: PlatformModel): MeshIndex {
  let ix = indexes.get(m);
  if (ix) return ix;
  ix = { namespaceLabels: new Map(), workloads: new Map() };
  for (const o of m.objects) {
    const j = o.json;
    if (j.kind === 'Namespace' && j.apiVersion === 'v1') {
      if (!ix.namespaceLabels.has(j.metadata.name)) ix.namespaceLabels.set(j.metadata.name, { ...(j.metadata.labels ?? {}) });
    } else if (WORKLOADS.includes(j.kind) && j.spec?.template) {
      const list = ix.workloads.get(j.metadata.namespace) ?? [];
      list.push(o);
      ix.workloads.set(j.metadata.namespace, list);
    }
  }
  indexes.set(m, ix);
  return ix;
}

function podLabelsOf(w: PlatformObject): Record<string, string> {
  return w.json.spec?.template?.metadata?.labels ?? {};
}

function workloadSidecar(ix: MeshIndex, w: PlatformObject): SidecarDecision {
  const ns = w.json.metadata.namespace;
  return sidecarDecision(ns, ix.namespaceLabels.get(ns), podLabelsOf(w), w.json.spec?.template?.metadata?.annotations ?? {});
}

const describe = (w: PlatformObject) => `${w.json.kind} ${w.json.metadata.name} (${w.path})`;
const SIDECAR_FIX = (ns: string) => `label namespace ${ns} ${ISTIO_INJECTION_LABEL}=enabled (customization namespaces.labels) or the pod template ${SIDECAR_INJECT_LABEL}: "true"`;

/**
 * MLP061: every Istio policy selects pods that get a sidecar.
 *
 * A policy with a selector must find a sidecar in every emitted workload it selects (pods
 * made at run time are not in the output and are not judged). A policy without a selector
 * is the namespace's: it is meant for every pod there, pods made at run time included,
 * which only namespace injection reaches. So the namespace must inject; pods that opt out
 * one by one are accepted, because an opt-out is a decision upstream makes per workload
 * (webhook servers the API server calls directly, databases, hook servers) and forcing a
 * sidecar into them would break them, while the policy still holds for every other pod.
 * Policies attached with targetRef(s) (gateways, waypoints) are not enforced by sidecars
 * and are left alone.
 */
export function checkIstioPolicySidecars(m: PlatformModel): IstioFinding[] {
  const ix = meshIndex(m);
  const out: IstioFinding[] = [];
  for (const o of m.objects) {
    const j = o.json;
    if (!isIstioPolicy(j) || j.spec?.targetRef || j.spec?.targetRefs) continue;
    const ns: string = j.metadata.namespace;
    const what = `${j.kind} ${ns}/${j.metadata.name}`;
    const selector: Record<string, string> | undefined = j.spec?.selector?.matchLabels;
    if (!selector || !Object.keys(selector).length) {
      const labels = ix.namespaceLabels.get(ns);
      if (labels && namespaceInjects(labels)) continue;
      const state = labels === undefined
        ? `namespace ${ns} is not created by the platform, so whether it injects sidecars is unknown`
        : `namespace ${ns} has no ${ISTIO_INJECTION_LABEL}=enabled or ${ISTIO_REVISION_LABEL} label, so only pods labelled ${SIDECAR_INJECT_LABEL}: "true" get a sidecar and pods made at run time get none`;
      out.push({
        rule: 'MLP061',
        path: o.path,
        message: `${what} has no selector: it applies to every pod of namespace ${ns}, but ${state}; Istio does not enforce it on pods without a sidecar. Label namespace ${ns} ${ISTIO_INJECTION_LABEL}=enabled (customization namespaces.labels), or give the policy a selector of pods that ask for a sidecar`,
      });
      continue;
    }
    for (const w of ix.workloads.get(ns) ?? []) {
      if (!labelSelectorMatches({ matchLabels: selector }, podLabelsOf(w))) continue;
      const d = workloadSidecar(ix, w);
      if (d.injected) continue;
      out.push({
        rule: 'MLP061',
        path: o.path,
        message: `${what} selects the pods of ${describe(w)}, which get no Istio sidecar (${d.why}), so Istio does not enforce the policy there; ${d.why.startsWith('its pod template opts out') ? 'drop the opt-out, or the policy' : SIDECAR_FIX(ns)}`,
      });
    }
  }
  return out;
}

/** Whether a NetworkPolicy ingress peer admits anyone. */
function openPeer(peer: { namespaceSelector?: LabelSelector; podSelector?: LabelSelector; ipBlock?: { cidr?: string } }): boolean {
  if (peer.ipBlock) return /\/0$/.test(peer.ipBlock.cidr ?? '');
  const empty = (s: LabelSelector | undefined) => !!s && !Object.keys(s.matchLabels ?? {}).length && !(s.matchExpressions ?? []).length;
  return empty(peer.namespaceSelector) && (peer.podSelector === undefined || empty(peer.podSelector));
}

/** Whether a NetworkPolicy restricts ingress to the pods it selects (no rule admits every source). */
function restrictsIngress(np: any): boolean {
  const types: string[] = np.spec?.policyTypes ?? ['Ingress'];
  if (!types.includes('Ingress')) return false;
  return (np.spec?.ingress ?? []).every((r: any) => Array.isArray(r.from) && r.from.length > 0 && !r.from.some(openPeer));
}

/**
 * MLP062: a workload declared as relying on Istio for authentication (declareMeshAuthentication)
 * has an AuthorizationPolicy enforced on its pods (it selects them and they get a sidecar),
 * or NetworkPolicies selecting them of which none admits every source. Ingress rules of
 * NetworkPolicies add up: one open rule opens the pods to everyone.
 */
export function checkMeshAuthentication(m: PlatformModel): IstioFinding[] {
  const ix = meshIndex(m);
  const out: IstioFinding[] = [];
  for (const c of m.components) {
    for (const auth of meshAuthenticationOf(c)) {
      const ns = c.namespaceName;
      const w = (ix.workloads.get(ns) ?? []).find((x) => x.json.metadata.name === auth.target.name);
      if (!w) continue; // not emitted: nothing to protect
      const pod = podLabelsOf(w);
      const sidecar = workloadSidecar(ix, w);
      const policies = m.objects.filter((o) => o.json.kind === 'AuthorizationPolicy' && isIstioPolicy(o.json) && o.json.metadata.namespace === ns && !o.json.spec?.targetRef && !o.json.spec?.targetRefs
        && labelSelectorMatches(o.json.spec?.selector?.matchLabels ? { matchLabels: o.json.spec.selector.matchLabels } : {}, pod));
      if (policies.length && sidecar.injected) continue;
      const fences = m.objects.filter((o) => o.json.kind === 'NetworkPolicy' && o.json.metadata.namespace === ns && labelSelectorMatches(o.json.spec?.podSelector ?? {}, pod));
      if (fences.length && fences.every((f) => restrictsIngress(f.json))) continue;
      const istio = policies.length
        ? `AuthorizationPolicy ${policies.map((p) => p.json.metadata.name).join(', ')} selects its pods, but they get no Istio sidecar (${sidecar.why})`
        : 'no AuthorizationPolicy selects its pods';
      const net = fences.length
        ? `NetworkPolicy ${fences.filter((f) => !restrictsIngress(f.json)).map((f) => f.json.metadata.name).join(', ')} admits every source`
        : 'no NetworkPolicy restricts who reaches it';
      out.push({
        rule: 'MLP062',
        path: w.path,
        message: `${describe(w)} in namespace ${ns} trusts ${auth.trusts}, which only Istio keeps callers from forging, but ${istio}, and ${net}: any pod can impersonate anyone. ` +
          `Give its pods a sidecar (${SIDECAR_FIX(ns)}) under an AuthorizationPolicy, or add a NetworkPolicy admitting only trusted callers`,
      });
    }
  }
  return out;
}
