import { App } from 'cdk8s';
import { Katib, KatibTrialKind } from '../../../constructs/katib';
import { ContributorRole, contributorBindingName, ProfileController, ProfileControllerProps, profileCrds } from '../../../constructs/profile-controller';
import { CertificateProvider } from '../../../lib/certificates';
import { interceptingWebhooks } from '../../../lib/checks';
import { CERT_MANAGER } from '../../../lib/component';
import { rootSchema } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { build, pinnable, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

function platform(props: ProfileControllerProps = {}, tenants: (pc: ProfileController) => void = () => undefined) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'profiles', prerequisites: [ISTIO] });
    tenants(new ProfileController(p, 'profile-controller', props));
    return p;
  });
}

const alone = platform({}, (pc) => {
  pc.addTenant({
    name: 'team-a',
    owner: 'alice@example.com',
    quota: { 'cpu': '16', 'memory': '64Gi', 'requests.nvidia.com/gpu': 2 },
    contributors: [{ user: 'bob@example.com', role: ContributorRole.EDIT }, { user: 'carol@example.com', role: ContributorRole.VIEW }],
  });
});
const objects = alone.model.objects.map((o) => o.json);
const find = (kind: string, name: string, namespace?: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name && (namespace === undefined || x.metadata.namespace === namespace));
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};
const newController = (props: ProfileControllerProps = {}) => new ProfileController(new Platform(new App(), 'p', { name: 'x' }), 'profile-controller', props);

describe('Profile CRD', () => {
  const def = profileCrds.profileCrd;
  test('profiles.kubeflow.org: cluster-scoped, v1 storage and v1beta1 served, one schema, conversion None', () => {
    expect(def.scope).toBe('Cluster');
    expect(def.versions.map((v) => [v.name, v.served, v.storage, v.subresources?.status])).toEqual([['v1', true, true, true], ['v1beta1', true, false, true]]);
    expect(def.conversion).toEqual({ strategy: 'None' });
    expect(def.versions[0].schema.toJson()).toEqual(def.versions[1].schema.toJson());
  });

  test('the owner is an atomic rbac Subject; quota and plugins as upstream', () => {
    const spec = rootSchema(def.versions[0].schema).toJson().properties!.spec;
    expect(spec.properties!.owner).toMatchObject({ 'x-kubernetes-map-type': 'atomic', 'required': ['kind', 'name'] });
    expect(spec.properties!.plugins.items!.properties!.spec).toEqual({ 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'description': expect.any(String) });
    expect(spec.properties!.resourceQuotaSpec.properties!.hard.additionalProperties).toMatchObject({ 'x-kubernetes-int-or-string': true });
  });
});

describe('ProfileController', () => {
  test('synthesizes alone with Istio present: every check passes', () => {
    expect(alone.model.components.map((c) => c.componentName)).toEqual(['profile-controller']);
  });

  test('one pod: the manager (health on 9876, leader election) and kfam (8081)', () => {
    const d = find('Deployment', 'profiles-deployment');
    const pod = d.spec.template.spec;
    expect(d.metadata.namespace).toBe('kubeflow');
    expect(pod.serviceAccountName).toBe('profiles-controller-service-account');
    // upstream's full selector (kubeflow/dashboard v2.0.0)
    expect(d.spec.selector.matchLabels).toEqual({ 'app': 'profile-controller', 'app.kubernetes.io/component': 'controller-manager', 'app.kubernetes.io/managed-by': 'kustomize', 'app.kubernetes.io/name': 'profile-controller', 'app.kubernetes.io/part-of': 'kubeflow-dashboard' });
    const [manager, kfam] = pod.containers;
    expect(manager.image).toBe('ghcr.io/kubeflow/dashboard/profile-controller:v2.0.0');
    expect(manager.command).toEqual(['/manager']);
    expect(manager.args).toEqual([
      '-userid-header', 'kubeflow-userid', '-userid-prefix', '', '-workload-identity', '',
      '-namespace-labels-path', '/etc/profile-controller/namespace-labels.yaml',
      '--leader-elect', '--health-probe-bind-address=:9876', '--metrics-bind-address=0',
    ]);
    expect(manager.ports).toEqual([{ name: 'health', containerPort: 9876, protocol: 'TCP' }]);
    expect(manager.env).toEqual(expect.arrayContaining([
      { name: 'ISTIO_INGRESS_GATEWAY_PRINCIPAL', value: 'cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account' },
      { name: 'NOTEBOOK_CONTROLLER_PRINCIPAL', value: 'cluster.local/ns/kubeflow/sa/notebook-controller-service-account' },
      { name: 'KFP_UI_PRINCIPAL', value: 'cluster.local/ns/kubeflow/sa/ml-pipeline-ui' },
    ]));
    expect(manager.volumeMounts).toEqual([{ name: 'namespace-labels', mountPath: '/etc/profile-controller', readOnly: true }]);
    expect(kfam.name).toBe('kfam');
    expect(kfam.image).toBe('ghcr.io/kubeflow/dashboard/access-management:v2.0.0');
    expect(kfam.command).toEqual(['/access-management', '-cluster-admin', '', '-userid-header', 'kubeflow-userid', '-userid-prefix', '']);
    expect(kfam.ports).toEqual([{ name: 'http-kfam', containerPort: 8081, protocol: 'TCP' }]);
    expect(kfam.securityContext).toMatchObject({ allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    expect(find('Service', 'profiles-kfam').spec.ports).toEqual([{ name: 'http-kfam', port: 8081, targetPort: 'http-kfam', protocol: 'TCP' }]);
    expect(find('VirtualService', 'profiles-kfam', 'kubeflow').spec).toEqual({
      gateways: ['kubeflow/kubeflow-gateway'],
      hosts: ['*'],
      http: [{ match: [{ uri: { prefix: '/kfam/' } }], rewrite: { uri: '/kfam/' }, route: [{ destination: { host: 'profiles-kfam.kubeflow.svc.cluster.local', port: { number: 8081 } } }] }],
    });
    expect(find('AuthorizationPolicy', 'profiles-kfam', 'kubeflow').spec).toEqual({
      action: 'ALLOW',
      selector: { matchLabels: { 'app': 'profile-controller', 'app.kubernetes.io/component': 'controller-manager', 'app.kubernetes.io/managed-by': 'kustomize', 'app.kubernetes.io/name': 'profile-controller', 'app.kubernetes.io/part-of': 'kubeflow-dashboard' } },
      rules: [{ from: [{ source: { principals: ['cluster.local/ns/kubeflow/sa/dashboard'] } }] }],
    });
    expect(find('NetworkPolicy', 'profiles-kfam', 'kubeflow').spec).toEqual({
      // All of the pod's selector labels, as upstream's render (component=controller-manager alone is on other operators' pods).
      podSelector: { matchLabels: { 'app': 'profile-controller', 'app.kubernetes.io/component': 'controller-manager', 'app.kubernetes.io/managed-by': 'kustomize', 'app.kubernetes.io/name': 'profile-controller', 'app.kubernetes.io/part-of': 'kubeflow-dashboard' } },
      policyTypes: ['Ingress'],
      ingress: [{
        ports: [{ protocol: 'TCP', port: 'http-kfam' }],
        from: [
          { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['istio-system'] }] } },
          { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['kubeflow'] }] } },
        ],
      }],
    });
  });

  test('the namespace labels file holds the default labels', () => {
    expect(find('ConfigMap', 'profiles-namespace-labels-data').data['namespace-labels.yaml']).toBe(
      'app.kubernetes.io/part-of: kubeflow-profile\nkatib.kubeflow.org/metrics-collector-injection: enabled\npipelines.kubeflow.org/enabled: "true"\npod-security.kubernetes.io/enforce: baseline\nserving.kubeflow.org/inferenceservice: enabled\n',
    );
  });

  test('PROF-PSS: profile namespaces keep Pod Security "baseline" enforced (upstream\'s overlays/kubeflow-pss), in the labels file and on tenants', () => {
    expect(find('ConfigMap', 'profiles-namespace-labels-data').data['namespace-labels.yaml']).toContain('pod-security.kubernetes.io/enforce: baseline\n');
    expect(find('Namespace', 'team-a').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('baseline');
  });

  test('least privilege instead of cluster-admin: it may bind only the three Kubeflow roles', () => {
    const rules = find('ClusterRole', 'profiles-deployment-role').rules;
    expect(rules).toContainEqual({ apiGroups: ['rbac.authorization.k8s.io'], resourceNames: ['kubeflow-admin', 'kubeflow-edit', 'kubeflow-view'], resources: ['clusterroles'], verbs: ['bind'] });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['namespaces', 'resourcequotas', 'serviceaccounts'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['security.istio.io'], resources: ['authorizationpolicies'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['kubeflow.org'], resources: ['profiles/finalizers'], verbs: ['update'] });
    expect(objects.filter((o) => o.kind === 'ClusterRoleBinding').map((o) => o.roleRef.name)).not.toContain('cluster-admin');
    for (const r of objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role').flatMap((o) => o.rules ?? [])) {
      expect([...r.verbs, ...(r.resources ?? []), ...(r.apiGroups ?? [])]).not.toContain('*');
    }
  });

  test('the Kubeflow role hierarchy: admin > edit > view, each with its Kubernetes permissions', () => {
    const sel = (name: string) => find('ClusterRole', name).aggregationRule.clusterRoleSelectors[0].matchLabels;
    expect(sel('kubeflow-admin')).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-admin': 'true' });
    expect(sel('kubeflow-edit')).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true' });
    expect(sel('kubeflow-view')).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-view': 'true' });
    expect(find('ClusterRole', 'kubeflow-edit').metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-admin': 'true' });
    expect(find('ClusterRole', 'kubeflow-view').metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true' });
    expect(find('ClusterRole', 'kubeflow-kubernetes-edit').metadata.labels).toEqual({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true' });
    expect(find('ClusterRole', 'kubeflow-kubernetes-admin').rules).toContainEqual({ apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] });
    const coreView = find('ClusterRole', 'kubeflow-kubernetes-view').rules.find((r: any) => r.apiGroups[0] === '');
    expect(coreView.resources).toEqual(expect.arrayContaining(['namespaces', 'pods', 'pods/log', 'resourcequotas']));
    expect(coreView.verbs).toEqual(['get', 'list', 'watch']);
  });
});

describe('tenants', () => {
  test('the namespace is created with its owner annotation and the labels the controller sets', () => {
    expect(find('Namespace', 'team-a').metadata).toEqual({
      name: 'team-a',
      annotations: { owner: 'alice@example.com' },
      labels: {
        'app.kubernetes.io/part-of': 'kubeflow-profile',
        'istio-injection': 'enabled',
        'katib.kubeflow.org/metrics-collector-injection': 'enabled',
        'pipelines.kubeflow.org/enabled': 'true',
        'pod-security.kubernetes.io/enforce': 'baseline',
        'serving.kubeflow.org/inferenceservice': 'enabled',
      },
    });
  });

  test('the Profile names its owner and quota; it is applied after the CRD', () => {
    const profile = find('Profile', 'team-a');
    expect(profile.apiVersion).toBe('kubeflow.org/v1');
    expect(profile.spec).toEqual({
      owner: { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' },
      resourceQuotaSpec: { hard: { 'cpu': '16', 'memory': '64Gi', 'requests.nvidia.com/gpu': 2 } },
    });
    expect(alone.model.objects.find((o) => o.json.kind === 'Profile')!.phase).toBe('30-resources');
  });

  test('the controller creates quota, owner binding and default accounts: none is emitted', () => {
    expect(objects.filter((o) => o.kind === 'ResourceQuota')).toEqual([]);
    expect(objects.filter((o) => o.metadata.namespace === 'team-a' && o.kind === 'ServiceAccount')).toEqual([]);
    expect(objects.filter((o) => o.metadata.name === 'namespaceAdmin')).toEqual([]);
  });

  test('contributors get the RoleBinding and AuthorizationPolicy the access management service creates', () => {
    expect(contributorBindingName('bob@example.com', ContributorRole.EDIT)).toBe('user-bob-example-com-clusterrole-edit');
    const rb = find('RoleBinding', 'user-bob-example-com-clusterrole-edit', 'team-a');
    expect(rb.metadata.annotations).toEqual({ user: 'bob@example.com', role: 'edit' });
    expect(rb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kubeflow-edit' });
    expect(rb.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob@example.com' }]);
    expect(find('RoleBinding', 'user-carol-example-com-clusterrole-view', 'team-a').roleRef.name).toBe('kubeflow-view');
    const ap = find('AuthorizationPolicy', 'user-bob-example-com-clusterrole-edit', 'team-a');
    expect(ap.apiVersion).toBe('security.istio.io/v1beta1');
    expect(ap.spec).toEqual({
      rules: [{
        when: [{ key: 'request.headers[kubeflow-userid]', values: ['bob@example.com'] }],
        from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account', 'cluster.local/ns/kubeflow/sa/ml-pipeline-ui'] } }],
      }],
    });
  });

  test('a NetworkPolicy admits the namespace itself, the gateway and the platform namespace', () => {
    expect(find('NetworkPolicy', 'tenant-isolation', 'team-a').spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: {} }, { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['istio-system', 'kubeflow'] }] } }] }],
    });
  });

  test('per-tenant and controller-wide settings: no network policy, removed and extra labels, prefix, group owner', () => {
    const b = platform({ tenantNetworkPolicy: false, namespaceLabels: { 'serving.kubeflow.org/inferenceservice': '', 'example.com/tier': 'gold' }, userIdPrefix: 'accounts.google.com:' }, (pc) => {
      pc.addTenant({ name: 'team-b', owner: 'ml-team', ownerKind: 'Group', contributors: [{ user: 'dan@example.com', role: ContributorRole.VIEW }] });
      pc.addTenant({ name: 'team-c', owner: 'erin@example.com', networkPolicy: true, labels: { 'example.com/cost-center': '42' } });
    });
    const json = b.model.objects.map((o) => o.json);
    expect(json.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.metadata.namespace)).toEqual(['kubeflow', 'team-c']);
    const nsB = json.find((o) => o.kind === 'Namespace' && o.metadata.name === 'team-b');
    expect(nsB.metadata.labels['serving.kubeflow.org/inferenceservice']).toBeUndefined();
    expect(nsB.metadata.labels['example.com/tier']).toBe('gold');
    expect(json.find((o) => o.kind === 'Namespace' && o.metadata.name === 'team-c').metadata.labels['example.com/cost-center']).toBe('42');
    expect(json.find((o) => o.kind === 'Profile' && o.metadata.name === 'team-b').spec.owner).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'ml-team' });
    expect(json.find((o) => o.kind === 'AuthorizationPolicy' && o.metadata.namespace === 'team-b').spec.rules[0].when[0].values).toEqual(['accounts.google.com:dan@example.com']);
  });

  test('scales: 2,000 tenants build, pass every check, and yield their objects', () => {
    const b = platform({}, (pc) => {
      for (let i = 0; i < 2000; i++) {
        pc.addTenant({ name: `tenant-${i}`, owner: `user-${i}@example.com`, quota: { cpu: '4' }, contributors: [{ user: `peer-${i}@example.com`, role: ContributorRole.VIEW }] });
      }
      expect(pc.tenantNames).toHaveLength(2000);
    });
    const count = (kind: string) => b.model.objects.filter((o) => o.json.kind === kind).length;
    expect(count('Profile')).toBe(2000);
    expect(count('Namespace')).toBe(2001);
    expect(count('NetworkPolicy')).toBe(2001);
    expect(count('AuthorizationPolicy')).toBe(2001);
    expect(count('RoleBinding')).toBe(2001);
    const last = b.model.objects.find((o) => o.json.kind === 'Profile' && o.json.metadata.name === 'tenant-1999')!;
    expect(last.json.spec.owner.name).toBe('user-1999@example.com');
  });

  test('fails when a tenant is declared twice', () => {
    const pc = newController();
    pc.addTenant({ name: 'team-a', owner: 'alice@example.com' });
    expect(() => pc.addTenant({ name: 'team-a', owner: 'bob@example.com' }))
      .toThrow("p/profile-controller: tenant 'team-a' is declared twice (first at p/profile-controller/Tenant-team-a); tenant names are namespace names and must be unique");
  });

  test('fails when a tenant name is not a namespace name', () => {
    expect(() => newController().addTenant({ name: 'Team_A', owner: 'alice@example.com' }))
      .toThrow("p/profile-controller/Tenant-Team_A: name 'Team_A' is not a valid namespace name (lower-case DNS label, at most 63 characters)");
  });

  test('fails when a tenant would take over a system namespace', () => {
    expect(() => newController().addTenant({ name: 'kube-system', owner: 'alice@example.com' }))
      .toThrow("p/profile-controller: tenant 'kube-system' would take over a Kubernetes system namespace; choose another name");
  });

  test('fails when a tenant is named like an ingress namespace', () => {
    expect(() => newController().addTenant({ name: 'istio-system', owner: 'alice@example.com' }))
      .toThrow("p/profile-controller: tenant 'istio-system' is named like a namespace every tenant admits traffic from (tenantIngressNamespaces); its pods could reach all tenants: choose another name");
  });

  test('fails when a tenant uses the namespace of a component', () => {
    expect(problemsOf(() => platform({ tenantIngressNamespaces: ['istio-system'] }, (pc) => pc.addTenant({ name: 'kubeflow', owner: 'alice@example.com' })))).toEqual([
      "p/profile-controller/Tenant-kubeflow: tenant 'kubeflow' uses namespace kubeflow of component 'profile-controller'; the profile controller would refuse it (its owner annotation differs); choose another name",
    ]);
  });

  test('fails when the owner has spaces', () => {
    expect(() => newController().addTenant({ name: 'team-a', owner: 'Alice Smith' }))
      .toThrow("p/profile-controller/Tenant-team-a: owner 'Alice Smith' must be a user id without spaces, as the identity proxy sends it (e.g. alice@example.com)");
  });

  test('fails when a quota is not a quantity', () => {
    expect(() => newController().addTenant({ name: 'team-a', owner: 'alice@example.com', quota: { memory: '64 GB' } }))
      .toThrow("p/profile-controller/Tenant-team-a: quota: memory: '64 GB' is not a quantity (e.g. 4, 500m, 16Gi)");
  });

  test('fails when a quota names no resource', () => {
    expect(() => newController().addTenant({ name: 'team-a', owner: 'alice@example.com', quota: { 'GPU count': 1 } }))
      .toThrow("p/profile-controller/Tenant-team-a: quota: 'GPU count' is not a resource name (e.g. cpu, requests.memory, requests.nvidia.com/gpu)");
  });

  test('fails when a contributor is the owner', () => {
    expect(() => newController().addTenant({ name: 'team-a', owner: 'alice@example.com', contributors: [{ user: 'alice@example.com', role: ContributorRole.EDIT }] }))
      .toThrow('p/profile-controller/Tenant-team-a: contributors: alice@example.com is the owner, who has admin rights already; remove the entry');
  });

  test('fails when a contributor is listed twice', () => {
    expect(() => newController().addTenant({
      name: 'team-a',
      owner: 'alice@example.com',
      contributors: [{ user: 'bob@example.com', role: ContributorRole.EDIT }, { user: 'bob@example.com', role: ContributorRole.VIEW }],
    })).toThrow('p/profile-controller/Tenant-team-a: contributors: bob@example.com is listed twice; give each user one role');
  });

  test('fails when a contributor role is unknown', () => {
    expect(() => newController().addTenant({ name: 'team-a', owner: 'alice@example.com', contributors: [{ user: 'bob@example.com', role: 'admin' as ContributorRole }] }))
      .toThrow("p/profile-controller/Tenant-team-a: contributors: role 'admin' of bob@example.com must be one of edit, view");
  });
});

describe('ProfileController props', () => {
  describe('labels the platform\'s components need in tenant namespaces (Katib)', () => {
    const withKatib = (props: ProfileControllerProps, labels?: Record<string, string>) => build((app) => {
      const p = new Platform(app, 'p', { name: 'profiles', prerequisites: [ISTIO, CERT_MANAGER], certificates: CertificateProvider.certManager() });
      new Katib(p, 'katib', { trialKinds: [KatibTrialKind.JOB] });
      new ProfileController(p, 'profile-controller', props).addTenant({ name: 'team-a', owner: 'alice@example.com', labels });
      return p;
    });

    test("Katib's pod webhook intercepts pods of a tenant namespace (the label resolves its namespaceSelector), not kube-system's", () => {
      const b = withKatib({});
      expect(b.model.components.find((c) => c.componentName === 'katib')!.tenantNamespaceLabels.map((l) => `${l.key}=${l.value}`)).toEqual(['katib.kubeflow.org/metrics-collector-injection=enabled']);
      const pod = (namespace: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'trial', namespace } });
      expect(interceptingWebhooks(b.model, pod('team-a')).map((w) => w.name)).toEqual(['mutator.pod.katib.kubeflow.org']);
      expect(interceptingWebhooks(b.model, pod('kube-system'))).toEqual([]);
    });

    test('fails when the controller-wide labels drop the label Katib needs', () => {
      expect(problemsOf(() => withKatib({ namespaceLabels: { 'katib.kubeflow.org/metrics-collector-injection': '' } }))).toEqual([
        "p/profile-controller: namespaceLabels: profile namespaces would not carry katib.kubeflow.org/metrics-collector-injection=enabled, which component 'katib' needs (Katib injects the metrics collector into trial pods (webhook mutator.pod.katib.kubeflow.org) only in namespaces with it); remove the override of katib.kubeflow.org/metrics-collector-injection",
      ]);
    });

    test("fails when a tenant's labels replace it", () => {
      expect(problemsOf(() => withKatib({}, { 'katib.kubeflow.org/metrics-collector-injection': 'disabled' }))).toEqual([
        "p/profile-controller/Tenant-team-a: labels: katib.kubeflow.org/metrics-collector-injection=disabled replaces katib.kubeflow.org/metrics-collector-injection=enabled, which component 'katib' needs (Katib injects the metrics collector into trial pods (webhook mutator.pod.katib.kubeflow.org) only in namespaces with it); remove it from the tenant's labels",
      ]);
    });

    test('without Katib, the label may be dropped', () => {
      expect(problemsOf(() => platform({ namespaceLabels: { 'katib.kubeflow.org/metrics-collector-injection': '' } }, (pc) => pc.addTenant({ name: 'team-a', owner: 'alice@example.com' })))).toEqual([]);
    });
  });

  test('without access management: one container, no kfam Service', () => {
    const b = platform({ accessManagement: false });
    const json = b.model.objects.map((o) => o.json);
    expect(json.find((o) => o.kind === 'Deployment').spec.template.spec.containers.map((c: any) => c.name)).toEqual(['manager']);
    expect(json.filter((o) => o.kind === 'Service')).toEqual([]);
    expect(json.filter((o) => ['NetworkPolicy', 'VirtualService', 'AuthorizationPolicy'].includes(o.kind))).toEqual([]);
  });

  test('fails when userIdHeader is not a header name', () => {
    expect(() => newController({ userIdHeader: 'x user' })).toThrow("p/profile-controller: userIdHeader 'x user' is not an HTTP header name (letters, digits and '-')");
  });

  test('fails when tenantIngressNamespaces is empty', () => {
    expect(() => newController({ tenantIngressNamespaces: [] }))
      .toThrow('p/profile-controller: tenantIngressNamespaces is empty: the ingress gateway could not reach any tenant; list at least its namespace, or set tenantNetworkPolicy: false');
  });

  test('fails when istioGateway is not namespace/name', () => {
    expect(() => newController({ istioGateway: 'gateway' })).toThrow("p/profile-controller: istioGateway 'gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)");
  });

  test('fails when a namespace label key is invalid', () => {
    expect(() => newController({ namespaceLabels: { 'bad key': 'x' } })).toThrow("p/profile-controller: namespaceLabels: 'bad key' is not a label key");
  });

  test('fails when Istio is neither present nor provided', () => {
    const problems = problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'profiles' });
      new ProfileController(p, 'profile-controller');
      return p;
    }));
    expect(problems.map((p) => /requires (\S+)/.exec(p)![1])).toEqual(['security.istio.io/AuthorizationPolicy', 'networking.istio.io/VirtualService']);
    expect(problems[0]).toMatch(/^p\/profile-controller: component 'profile-controller' \(ProfileController\) requires security.istio.io\/AuthorizationPolicy/);
  });

  test('full output', () => {
    expect(alone.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});
