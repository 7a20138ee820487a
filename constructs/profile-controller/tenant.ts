import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { Profile, ProfilePlugin } from '../../imports/profiles.kubeflow.org';
import { KubeflowRole } from '../../lib/aggregation';

/** What a contributor may do in a tenant's namespace (the access management service's roles). */
export enum ContributorRole {
  EDIT = 'edit',
  VIEW = 'view',
}

export interface TenantContributor {
  /** The user id as the identity proxy sends it (e.g. an email). */
  readonly user: string;
  readonly role: ContributorRole;
}

export interface TenantProps {
  /** The tenant's name: the Profile's name and its namespace (a DNS label). */
  readonly name: string;
  /** The owner's user id as the identity proxy sends it (e.g. alice@example.com). */
  readonly owner: string;
  /** @default User */
  readonly ownerKind?: 'User' | 'Group';
  /**
   * Hard limits of the namespace's ResourceQuota (the controller creates kf-resource-quota
   * from them), e.g. `{ cpu: '16', memory: '64Gi', 'requests.nvidia.com/gpu': 2 }`.
   * @default - no quota
   */
  readonly quota?: Record<string, string | number>;
  /** Users who may edit or view the namespace besides the owner. @default [] */
  readonly contributors?: TenantContributor[];
  /** Profile plugins (cloud identity), e.g. `{ kind: 'WorkloadIdentity', spec: { gcpServiceAccount: '...' } }`. @default [] */
  readonly plugins?: ProfilePlugin[];
  /** Extra namespace labels. @default {} */
  readonly labels?: Record<string, string>;
  /** Whether to isolate the namespace with a NetworkPolicy. @default the profile controller's tenantNetworkPolicy */
  readonly networkPolicy?: boolean;
}

/** Settings every tenant of one profile controller shares (resolved once, not per tenant). */
export interface TenantSettings {
  /** Namespace labels the controller would set (defaults plus the Istio label). */
  readonly namespaceLabels: Readonly<Record<string, string>>;
  readonly userIdHeader: string;
  readonly userIdPrefix: string;
  /** Principals allowed to forward users' requests (ingress gateway, pipelines UI). */
  readonly gatewayPrincipals: readonly string[];
  /** Namespaces whose pods may reach a tenant's pods. */
  readonly ingressNamespaces: readonly string[];
  readonly networkPolicy: boolean;
}

const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|[KMGTPE]i?|[munkMGTPE])?$/;
const RESOURCE_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** The RoleBinding (and AuthorizationPolicy) name the access management service gives a contributor. */
export function contributorBindingName(user: string, role: ContributorRole): string {
  const safe = user.replace(/[^a-zA-Z0-9]+/g, '-');
  return `user-${safe}-clusterrole-${role}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/**
 * One tenant: a Profile, plus what the profile controller does not create. The namespace
 * is created here too, annotated with its owner, so that namespaced objects apply in one
 * pass (the controller adopts a namespace whose owner annotation names the profile's
 * owner); contributors get the RoleBinding and AuthorizationPolicy the access management
 * service would create for them; a NetworkPolicy isolates the namespace. The controller
 * still makes the owner's binding, the default-editor and default-viewer accounts, the
 * owner's AuthorizationPolicy and the ResourceQuota.
 *
 * Built from `TenantSettings` alone: the cost of a tenant does not depend on how many
 * others there are.
 */
export class Tenant extends Construct {
  public readonly name: string;
  /** The labels of its namespace. */
  public readonly labels: Readonly<Record<string, string>>;
  public readonly namespace: ApiObject;
  public readonly profile: Profile;

  constructor(scope: Construct, id: string, props: TenantProps, settings: TenantSettings) {
    super(scope, id);
    const fail = (msg: string): never => {
      throw new Error(`${this.node.path}: ${msg}`);
    };
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.name) || props.name.length > 63) {
      fail(`name '${props.name}' is not a valid namespace name (lower-case DNS label, at most 63 characters)`);
    }
    if (!props.owner.trim() || /\s/.test(props.owner)) fail(`owner '${props.owner}' must be a user id without spaces, as the identity proxy sends it (e.g. alice@example.com)`);
    const quota = props.quota ?? {};
    for (const [resource, value] of Object.entries(quota)) {
      if (!RESOURCE_NAME.test(resource)) fail(`quota: '${resource}' is not a resource name (e.g. cpu, requests.memory, requests.nvidia.com/gpu)`);
      if (typeof value === 'number' ? !(Number.isFinite(value) && value >= 0) : !QUANTITY.test(value)) {
        fail(`quota: ${resource}: '${value}' is not a quantity (e.g. 4, 500m, 16Gi)`);
      }
    }
    const seen = new Set<string>();
    for (const c of props.contributors ?? []) {
      if (!c.user.trim() || /\s/.test(c.user)) fail(`contributors: user '${c.user}' must be a user id without spaces`);
      if (!Object.values(ContributorRole).includes(c.role)) fail(`contributors: role '${c.role}' of ${c.user} must be one of ${Object.values(ContributorRole).join(', ')}`);
      if (c.user === props.owner) fail(`contributors: ${c.user} is the owner, who has admin rights already; remove the entry`);
      if (seen.has(c.user)) fail(`contributors: ${c.user} is listed twice; give each user one role`);
      seen.add(c.user);
    }
    this.name = props.name;
    const ns = props.name;

    this.labels = props.labels && Object.keys(props.labels).length ? { ...settings.namespaceLabels, ...props.labels } : settings.namespaceLabels;
    this.namespace = new k8s.KubeNamespace(this, 'Namespace', {
      metadata: {
        name: ns,
        annotations: { owner: props.owner },
        labels: { ...this.labels },
      },
    });
    this.profile = new Profile(this, 'Profile', {
      metadata: { name: ns },
      spec: {
        owner: { apiGroup: 'rbac.authorization.k8s.io', kind: props.ownerKind ?? 'User', name: props.owner },
        resourceQuotaSpec: Object.keys(quota).length ? { hard: { ...quota } } : undefined,
        plugins: props.plugins?.length ? props.plugins : undefined,
      },
    });

    for (const c of props.contributors ?? []) {
      const name = contributorBindingName(c.user, c.role);
      const annotations = { user: c.user, role: c.role };
      new k8s.KubeRoleBinding(this, `Contributor-${name}`, {
        metadata: { name, namespace: ns, annotations },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: c.role === ContributorRole.EDIT ? KubeflowRole.EDIT : KubeflowRole.VIEW },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: c.user }],
      });
      new ApiObject(this, `ContributorPolicy-${name}`, {
        apiVersion: 'security.istio.io/v1beta1',
        kind: 'AuthorizationPolicy',
        metadata: { name, namespace: ns, annotations },
        spec: {
          rules: [{
            when: [{ key: `request.headers[${settings.userIdHeader}]`, values: [`${settings.userIdPrefix}${c.user}`] }],
            from: [{ source: { principals: [...settings.gatewayPrincipals] } }],
          }],
        },
      });
    }

    if (props.networkPolicy ?? settings.networkPolicy) {
      new k8s.KubeNetworkPolicy(this, 'NetworkPolicy', {
        metadata: { name: 'tenant-isolation', namespace: ns },
        spec: {
          podSelector: {},
          policyTypes: ['Ingress'],
          ingress: [{
            from: [
              { podSelector: {} },
              { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [...settings.ingressNamespaces] }] } },
            ],
          }],
        },
      });
    }
  }
}
