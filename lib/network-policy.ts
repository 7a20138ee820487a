import { ApiObject, ApiObjectProps, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { Component } from './component';
import type { Platform } from './platform';
import type { LabelSelector } from './webhook-rules';

/**
 * Network isolation as data: NetworkPolicies (networking.k8s.io/v1) and Istio
 * AuthorizationPolicies (security.istio.io/v1) that a component declares for the pods it
 * runs, and the platform's fence on plain-HTTP metrics ports.
 *
 * Every policy names its targets (the workloads whose pods it is meant to select); MLP060
 * checks at synth that its selector matches exactly those workloads' pods in its namespace,
 * never another workload's (kubebuilder's `control-plane: controller-manager` is on many
 * operators' pods in a shared namespace).
 */

/**
 * The namespace of Istio's ingress gateway (kubeflow/manifests installs it in istio-system):
 * what the web apps behind the gateway admit where the platform isolates their namespace.
 */
export const INGRESS_GATEWAY_NAMESPACE = 'istio-system';

/** The label the API server puts on every Namespace with its name (Kubernetes 1.22+). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** What a policy is meant to select. */
export interface PolicyTarget {
  /** e.g. the Deployment's name; for pods made at run time, what makes them. */
  readonly name: string;
  readonly selectorLabels: Record<string, string>;
  /**
   * Pods an operator creates at run time (not in the output), e.g. ModelMesh's runtime pods:
   * the policy must then select no emitted workload.
   * @default false: a Deployment, StatefulSet or DaemonSet of the output named `name`
   */
  readonly runtimePods?: boolean;
}

/** Whether a label selector (matchLabels and matchExpressions) selects an object with `labels`; an empty selector selects everything. */
export function labelSelectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  if (!Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v)) return false;
  return (selector.matchExpressions ?? []).every((e) => {
    const has = e.key in labels;
    switch (e.operator) {
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      case 'In': return has && (e.values ?? []).includes(labels[e.key]);
      case 'NotIn': return !has || !(e.values ?? []).includes(labels[e.key]);
      default: return false;
    }
  });
}

/**
 * A selector on some of a target's selector labels: upstream's, where upstream selects by
 * fewer labels than the workload's selector (e.g. the `app` label alone). Fails when the
 * target lacks one of them, so the selector is always made of labels its pods carry.
 */
export function selectorOn(target: PolicyTarget, keys: readonly string[]): LabelSelector {
  const missing = keys.filter((k) => !(k in target.selectorLabels));
  if (!keys.length || missing.length) {
    throw new Error(`selectorOn: target ${target.name} has no selector label ${missing.join(', ') || '(none given)'} (its selector labels: ${Object.keys(target.selectorLabels).join(', ')}); select by labels its pods carry`);
  }
  return { matchLabels: Object.fromEntries(keys.map((k) => [k, target.selectorLabels[k]])) };
}

/** Where ingress may come from. */
export class NetworkPeer {
  /** Every pod of the namespace with this name. */
  public static namespace(name: string): NetworkPeer {
    return new NetworkPeer({ namespaceSelector: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: [name] }] } });
  }

  /** Every pod of the namespaces that carry these labels. */
  public static namespacesLabelled(labels: Record<string, string>): NetworkPeer {
    return new NetworkPeer({ namespaceSelector: { matchLabels: { ...labels } } });
  }

  /** Pods of the policy's own namespace that carry these labels (every pod there when none). */
  public static podsInOwnNamespace(labels: Record<string, string> = {}): NetworkPeer {
    return new NetworkPeer({ podSelector: Object.keys(labels).length ? { matchLabels: { ...labels } } : {} });
  }

  private constructor(public readonly json: { namespaceSelector?: LabelSelector; podSelector?: LabelSelector }) {}
}

/** A port of the selected pods: a number, or the name of a container port. */
export interface NetworkPolicyPort {
  readonly port: number | string;
  /** @default TCP */
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface NetworkPolicyIngressRule {
  /** @default - any source (pods, namespaces, nodes and outside the cluster) */
  readonly from?: NetworkPeer[];
  /** Numbers or container port names. @default - every port */
  readonly ports?: Array<number | string | NetworkPolicyPort>;
}

export interface NetworkPolicyProps {
  /** The object's name (upstream's, where upstream ships the policy). */
  readonly name: string;
  /** The workloads whose pods it selects (checked by MLP060). */
  readonly targets: PolicyTarget[];
  /**
   * The pod selector, when upstream's differs from the single target's selector labels
   * (e.g. an Exists expression for pods made at run time).
   * @default - the selector labels of the one target
   */
  readonly podSelector?: LabelSelector;
  /** Allowed ingress: the union of the rules; everything else to the selected pods is denied. */
  readonly ingress: NetworkPolicyIngressRule[] | (() => NetworkPolicyIngressRule[]);
  readonly labels?: Record<string, string>;
  /**
   * Part of the platform's isolation of the component's namespace (`Platform.isolateNamespace`,
   * as kubeflow/manifests' common/networkpolicies isolates `kubeflow`): what, besides the
   * namespace's own pods, may reach the targets once every pod there is isolated. Emitted
   * only when the platform isolates that namespace; a platform that leaves the component
   * out leaves its policy out with it.
   * @default false: always emitted
   */
  readonly namespaceIsolation?: boolean;
}

/** The component a construct belongs to. */
function componentOf(c: IConstruct): Component {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) if (s instanceof Component) return s;
  throw new Error(`${c.node.path}: a policy must be declared inside a Component`);
}

/** Policies declared through this module, by object, with their targets (for MLP060). */
const declaredTargets = new WeakMap<IConstruct, PolicyTarget[]>();

/** The targets a policy object was declared with (undefined for objects not made here). */
export function policyTargetsOf(obj: IConstruct): readonly PolicyTarget[] | undefined {
  return declaredTargets.get(obj);
}

function podSelectorOf(path: string, targets: PolicyTarget[], selector: LabelSelector | undefined): LabelSelector {
  if (!targets.length) throw new Error(`${path}: targets is empty; name the workloads whose pods the policy selects`);
  if (selector) return selector;
  if (targets.length > 1) {
    throw new Error(`${path}: ${targets.length} targets (${targets.map((t) => t.name).join(', ')}) but no podSelector; give the selector that matches exactly those workloads' pods, or one policy per workload`);
  }
  if (!Object.keys(targets[0].selectorLabels).length) throw new Error(`${path}: target ${targets[0].name} has no selector labels; a policy would select every pod of the namespace`);
  return { matchLabels: { ...targets[0].selectorLabels } };
}

function portJson(p: number | string | NetworkPolicyPort): { port: number | string; protocol: string } {
  const spec = typeof p === 'object' ? p : { port: p };
  return { port: spec.port, protocol: spec.protocol ?? 'TCP' };
}

/** A NetworkPolicy (ingress) over the pods of named workloads. */
export class NetworkPolicy extends Construct {
  public readonly name: string;
  public readonly namespace: string;
  public readonly targets: PolicyTarget[];
  public readonly podSelector: LabelSelector;
  public readonly apiObject: ApiObject;
  /** Whether it is emitted only where the platform isolates its namespace (NetworkPolicyProps.namespaceIsolation). */
  public readonly namespaceIsolation: boolean;

  constructor(scope: Construct, id: string, props: NetworkPolicyProps) {
    super(scope, id);
    const component = componentOf(this);
    this.name = props.name;
    this.namespace = component.namespaceName;
    this.targets = [...props.targets];
    this.podSelector = podSelectorOf(this.node.path, this.targets, props.podSelector);
    const rules = () => (typeof props.ingress === 'function' ? props.ingress() : props.ingress);
    if (typeof props.ingress !== 'function' && !props.ingress.length) {
      throw new Error(`${this.node.path}: ingress is empty, which denies every connection to ${this.targets.map((t) => t.name).join(', ')}; list what may connect`);
    }
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: props.name, namespace: this.namespace, labels: props.labels && Object.keys(props.labels).length ? props.labels : undefined },
      spec: {
        podSelector: this.podSelector,
        policyTypes: ['Ingress'],
        ingress: Lazy.any({
          produce: () => rules().map((r) => ({
            from: r.from?.map((f) => f.json),
            ports: r.ports?.map(portJson),
          })),
        }),
      },
    });
    declaredTargets.set(this.apiObject, this.targets);
    this.namespaceIsolation = props.namespaceIsolation ?? false;
    if (this.namespaceIsolation) component.omitUnless(this, () => component.platform.isolatesNamespace(this.namespace));
  }

  /** Whether the platform emits it (always, unless it belongs to a namespace isolation the platform does not make). */
  public get emitted(): boolean {
    return !this.namespaceIsolation || componentOf(this).platform.isolatesNamespace(this.namespace);
  }
}

/**
 * The name of the policy `Platform.isolateNamespace` adds to a namespace (kubeflow/manifests'
 * name): every pod there admits traffic from the namespace's own pods, and so is isolated
 * from every other source that no other policy admits.
 */
export const SAME_NAMESPACE_POLICY_NAME = 'default-allow-same-namespace';

/** The NetworkPolicy that isolates a namespace: its pods admit only the namespace's own pods (plus what other policies admit). */
export function sameNamespacePolicy(namespace: string): ApiObjectProps {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: SAME_NAMESPACE_POLICY_NAME, namespace },
    spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] },
  };
}

/** One `from` entry of an AuthorizationPolicy rule (Istio's `source`). */
export interface AuthorizationSource {
  /** SPIFFE principals, e.g. serviceAccountPrincipal('kubeflow', 'ml-pipeline'). */
  readonly principals?: string[];
  readonly namespaces?: string[];
}

/** A condition of an AuthorizationPolicy rule (Istio's `when`). */
export interface AuthorizationCondition {
  /** e.g. request.headers[kubeflow-userid] */
  readonly key: string;
  readonly values?: string[];
  readonly notValues?: string[];
}

/** A rule: a request matches when it matches every field given; a rule with no field matches every request. */
export interface AuthorizationRule {
  readonly from?: AuthorizationSource[];
  readonly when?: AuthorizationCondition[];
}

export interface AuthorizationPolicyProps {
  readonly name: string;
  /** The workloads whose pods it selects (checked by MLP060). */
  readonly targets: PolicyTarget[];
  /** @default - the selector labels of the one target */
  readonly selector?: Record<string, string>;
  /** @default - Istio's default, ALLOW (left out, as upstream does where it does) */
  readonly action?: 'ALLOW' | 'DENY';
  readonly rules: AuthorizationRule[];
  readonly labels?: Record<string, string>;
  /**
   * Whether the component is unsafe without it (e.g. the API server then trusts a user
   * header from anyone): synth then fails on a platform without Istio. Otherwise the policy
   * is left out there.
   * @default false
   */
  readonly required?: boolean;
  /** Why it is required (shown in the error). @default - the policy's name */
  readonly reason?: string;
}

/** Istio's SPIFFE principal of a ServiceAccount (trust domain cluster.local). */
export function serviceAccountPrincipal(namespace: string, serviceAccount: string, trustDomain = 'cluster.local'): string {
  return `${trustDomain}/ns/${namespace}/sa/${serviceAccount}`;
}

/** The group and kind of Istio's AuthorizationPolicy. */
export const AUTHORIZATION_POLICY_KIND = { group: 'security.istio.io', kind: 'AuthorizationPolicy' } as const;

/**
 * Whether the platform serves Istio's AuthorizationPolicy: a prerequisite (ISTIO) or a
 * component's CRD.
 */
export function platformHasIstio(platform: Platform): boolean {
  return platform.servesKind(AUTHORIZATION_POLICY_KIND.group, AUTHORIZATION_POLICY_KIND.kind);
}

/**
 * An Istio AuthorizationPolicy over the pods of named workloads. Istio enforces it in the
 * pods' proxies, so without Istio it has no effect; on a platform without Istio it is left
 * out (the API server would reject its kind), as upstream's installs without Istio leave
 * theirs out, unless `required`: then synth fails until the platform declares Istio.
 */
export class AuthorizationPolicy extends Construct {
  public readonly name: string;
  public readonly namespace: string;
  public readonly targets: PolicyTarget[];
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: AuthorizationPolicyProps) {
    super(scope, id);
    const component = componentOf(this);
    this.name = props.name;
    this.namespace = component.namespaceName;
    this.targets = [...props.targets];
    const selector = podSelectorOf(this.node.path, this.targets, props.selector ? { matchLabels: props.selector } : undefined).matchLabels!;
    if (!props.rules.length) {
      throw new Error(`${this.node.path}: rules is empty; an ALLOW policy without rules denies every request to ${this.targets.map((t) => t.name).join(', ')}. List what may call it (a rule {} allows every request)`);
    }
    if (props.required) {
      component.requires.push({ ...AUTHORIZATION_POLICY_KIND, reason: props.reason ?? `AuthorizationPolicy ${props.name} protects ${this.targets.map((t) => t.name).join(', ')}; declare Istio (prerequisites: [ISTIO])` });
    }
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: props.name, namespace: this.namespace, labels: props.labels && Object.keys(props.labels).length ? props.labels : undefined },
      spec: {
        action: props.action,
        selector: { matchLabels: selector },
        rules: props.rules.map((r) => ({
          from: r.from?.map((s) => ({ source: { principals: s.principals, namespaces: s.namespaces } })),
          when: r.when?.map((w) => ({ key: w.key, values: w.values, notValues: w.notValues })),
        })),
      },
    });
    declaredTargets.set(this.apiObject, this.targets);
    component.omitUnless(this, () => platformHasIstio(component.platform));
  }

  /** Whether the platform emits it (it has Istio). */
  public get emitted(): boolean {
    return platformHasIstio(componentOf(this).platform);
  }
}

/** The platform's fence on plain-HTTP metrics ports. */
export interface MetricsFenceSettings {
  /**
   * Whether every controller that serves metrics over plain HTTP on a Service port gets a
   * NetworkPolicy admitting its metrics port only from the monitoring namespace.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * The namespace Prometheus scrapes from.
   * @default monitoring
   */
  readonly monitoringNamespace?: string;
}

/** The fence as the platform resolved it. */
export interface MetricsFence {
  readonly enabled: boolean;
  readonly monitoringNamespace: string;
}

/** Resolves and checks a platform's metricsFence prop. */
export function resolveMetricsFence(path: string, settings: MetricsFenceSettings | undefined): MetricsFence {
  const ns = settings?.monitoringNamespace ?? 'monitoring';
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(ns) || ns.length > 63) {
    throw new Error(`${path}: metricsFence.monitoringNamespace '${ns}' is not a valid namespace name (lower-case DNS label, at most 63 characters); name the namespace your Prometheus runs in`);
  }
  return { enabled: settings?.enabled ?? true, monitoringNamespace: ns };
}
