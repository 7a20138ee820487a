/**
 * The roles and bindings controllers create at run time, created on a real API server as
 * their ServiceAccounts: the server's own escalation check decides (lib/runtime-rbac.ts and
 * MLP031 model it at synth time; this holds the model to the server).
 *
 * For each default platform in turn, on one server: its Namespaces, ServiceAccounts and RBAC
 * objects are applied (aggregated ClusterRoles with the rules they aggregate written in, as
 * there is no controller-manager to fill them), then, impersonating each ServiceAccount
 * that declares run-time roles or bindings (`grants`), each one is created with a
 * server-side dry run in a test namespace (its fixed namespace when it has one); a binding
 * to a Role the same controller creates finds that Role created there first. Then the
 * platform's RBAC is deleted before the next platform's is applied. The authorizer reads
 * RBAC from informer caches, so after each change a sentinel ClusterRole, Role and their
 * bindings, written last, are polled with SubjectAccessReviews until the server sees them
 * (or no longer sees them).
 */
import * as k8s from '@kubernetes/client-node';
import { App } from 'cdk8s';
import { ApiError, KubeClient } from '../../lib/cluster/client';
import { isRuntimeBinding, PolicyRule, RuntimeRole } from '../../lib/rbac';
import { clusterRoleRules, runtimeGrantProblem, runtimeRbacCreators, runtimeRbacObject, RuntimeRbacCreator } from '../../lib/runtime-rbac';
import { buildPlatform } from '../../lib/synth';
import { DEFAULT_PLATFORMS } from '../../platforms';
import { ServingPlatform } from '../../platforms/serving';
import { ApiServer, describeWithApiServer } from '../support/apiserver';

const TEST_NS = 'runtime-grants';
const FIELD_MANAGER = 'mlplatform-runtime-grants';
const RBAC_KINDS = ['ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Json = Record<string, any>;

/** The objects of a built platform the test applies: Namespaces, ServiceAccounts, RBAC; aggregated ClusterRoles filled in. */
function rbacObjectsOf(objects: readonly Json[]): Json[] {
  const aggregated = clusterRoleRules(objects);
  // Namespaces the objects use that the platform expects to exist (existingNamespaces) are made too.
  const named = new Set(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name));
  const used = [...new Set(objects.filter((o) => o.kind === 'ServiceAccount' || RBAC_KINDS.includes(o.kind)).map((o) => o.metadata.namespace).filter((n): n is string => !!n && !named.has(n)))];
  const namespaces: Json[] = used.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  return [...namespaces, ...objects]
    .filter((o) => o.kind === 'Namespace' || o.kind === 'ServiceAccount' || (RBAC_KINDS.includes(o.kind) && String(o.apiVersion).startsWith('rbac.authorization.k8s.io/')))
    .map((o) => (o.kind === 'ClusterRole' && o.aggregationRule ? { ...o, rules: aggregated.get(o.metadata.name) } : o));
}

/** A client that acts as the ServiceAccount (the admin impersonates it; the server adds its groups). */
function clientAs(server: ApiServer, sa: { name: string; namespace: string }): KubeClient {
  const admin = server.kubeConfig.getCurrentUser()!;
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: server.kubeConfig.getClusters(),
    users: [{ name: 'impersonated', token: admin.token, impersonateUser: `system:serviceaccount:${sa.namespace}:${sa.name}` }],
    contexts: [{ name: 'impersonated', cluster: server.kubeConfig.getCurrentCluster()!.name, user: 'impersonated' }],
    currentContext: 'impersonated',
  });
  return new KubeClient(kc);
}

const message = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

async function applyAll(client: KubeClient, objects: readonly Json[]): Promise<string[]> {
  const errors: string[] = [];
  const rank = (o: Json) => ['Namespace', 'ServiceAccount', 'ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding'].indexOf(o.kind);
  for (const o of [...objects].sort((a, b) => rank(a) - rank(b))) {
    try {
      await client.apply(o as any, { fieldManager: FIELD_MANAGER });
    } catch (e) {
      errors.push(`${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}: ${message(e)}`);
    }
  }
  return errors;
}

/** The sentinel RBAC of one round: a ClusterRole and a Role, each bound to one user. */
function sentinel(round: number): Json[] {
  const name = `mlp-sentinel-${round}`;
  const rbac = 'rbac.authorization.k8s.io/v1';
  const roleRef = (kind: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
  const subjects = [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }];
  return [
    { apiVersion: rbac, kind: 'ClusterRole', metadata: { name }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
    { apiVersion: rbac, kind: 'Role', metadata: { name, namespace: TEST_NS }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] },
    { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: roleRef('ClusterRole'), subjects },
    { apiVersion: rbac, kind: 'RoleBinding', metadata: { name, namespace: TEST_NS }, roleRef: roleRef('Role'), subjects },
  ];
}

/** Waits until the authorizer sees the round's sentinel (present) or no longer sees it (absent). */
async function awaitSentinel(admin: KubeClient, round: number, present: boolean): Promise<void> {
  const user = `mlp-sentinel-${round}`;
  const allowed = async (verb: string, namespace?: string) => {
    const review = await admin.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user, resourceAttributes: { group: '', resource: 'configmaps', verb, ...(namespace ? { namespace } : {}) } },
    });
    return review.status?.allowed === true;
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await allowed('get')) === present && (await allowed('list', TEST_NS)) === present) return;
    await sleep(100);
  }
  throw new Error(`the authorizer did not see the sentinel of round ${round} ${present ? 'appear' : 'go'} within 30 s`);
}

/** Creates, as the creator, each object it declares (dry run); returns the server's refusals. */
async function createAsCreator(server: ApiServer, admin: KubeClient, creator: RuntimeRbacCreator, made: Json[]): Promise<Array<{ grant: RuntimeRole; error: string }>> {
  const as = clientAs(server, creator.serviceAccount);
  const out: Array<{ grant: RuntimeRole; error: string }> = [];
  for (const g of creator.grants) {
    const obj = runtimeRbacObject(g, TEST_NS) as Json;
    const ns = obj.metadata.namespace as string | undefined;
    if (isRuntimeBinding(g)) {
      // A binding finds its role there: one the controller creates, or one another component
      // or the cluster provides (the declaration carries its rules), made by the admin when missing.
      const ref = g.roleRef!;
      const sibling = creator.grants.find((s) => s.kind === ref.kind && s.name === ref.name);
      const role = sibling ? runtimeRbacObject(sibling, ns ?? TEST_NS) as Json
        : g.rules && !(await admin.get('rbac.authorization.k8s.io/v1', ref.kind, ref.kind === 'Role' ? ns : undefined, ref.name))
          ? runtimeRbacObject({ kind: ref.kind, name: ref.name, createdFor: 'the bound role', rules: g.rules }, ns ?? TEST_NS) as Json
          : undefined;
      if (role) {
        await admin.apply(role as any, { fieldManager: FIELD_MANAGER });
        made.push(role);
      }
    }
    try {
      await as.request('POST', `${await as.pathOf('rbac.authorization.k8s.io/v1', g.kind, ns)}?dryRun=All&fieldManager=${FIELD_MANAGER}`, obj);
    } catch (e) {
      out.push({ grant: g, error: message(e) });
    }
  }
  return out;
}

async function deleteAll(admin: KubeClient, objects: readonly Json[]): Promise<void> {
  for (const o of objects) {
    if (!RBAC_KINDS.includes(o.kind) || String(o.metadata.name).startsWith('system:')) continue;
    await admin.delete(o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name, { propagationPolicy: 'Background' });
  }
}

/** Everything one round did: what was applied (for deletion), the refusals, and what MLP031 said of each declaration. */
interface Round {
  readonly applyErrors: string[];
  readonly refused: string[];
  readonly declared: number;
  /** Declarations on which MLP031 and the server disagree. */
  readonly disagreements: string[];
}

let round = 0;

/** Applies a platform's RBAC, creates every declared run-time object as its creator, and removes the platform's RBAC again. */
async function runRound(server: ApiServer, objects: readonly Json[], creators: readonly RuntimeRbacCreator[], tamper?: (objs: Json[]) => Json[]): Promise<Round> {
  const admin = new KubeClient(server.kubeConfig);
  round++;
  let applied = rbacObjectsOf(objects);
  if (tamper) applied = tamper(applied);
  const extras = [...sentinel(round)];
  const applyErrors = await applyAll(admin, applied);
  for (const o of extras) await admin.apply(o as any, { fieldManager: FIELD_MANAGER });
  await awaitSentinel(admin, round, true);
  const refused: string[] = [];
  const disagreements: string[] = [];
  let declared = 0;
  const made: Json[] = [];
  try {
    for (const c of creators) {
      const refusals = await createAsCreator(server, admin, c, made);
      for (const g of c.grants) {
        declared++;
        const r = refusals.find((x) => x.grant === g);
        if (r) refused.push(`${c.component.componentName} ${c.serviceAccount.namespace}/${c.serviceAccount.name} ${g.kind} ${g.name}: ${r.error}`);
        const modelSays = runtimeGrantProblem(applied, c, g) !== undefined;
        if (modelSays !== !!r) disagreements.push(`${c.component.componentName} ${g.kind} ${g.name}: MLP031 ${modelSays ? 'refuses' : 'accepts'}, the server ${r ? `refuses (${r.error})` : 'accepts'}`);
      }
    }
  } finally {
    // Roles made for bindings to find are RBAC too.
    await deleteAll(admin, [...applied, ...made, ...extras]);
    await awaitSentinel(admin, round, false);
  }
  return { applyErrors, refused, declared, disagreements };
}

/** Each default platform built once, when a test first needs it (a skipped file builds nothing). */
const built = new Map<string, { objects: Json[]; creators: RuntimeRbacCreator[] }>();
function platform(name: string): { objects: Json[]; creators: RuntimeRbacCreator[] } {
  let b = built.get(name);
  if (!b) {
    const build = buildPlatform(DEFAULT_PLATFORMS.find((p) => p.name === name)!.create(new App({ outdir: '/nonexistent' })));
    b = { objects: build.model.objects.map((o) => o.json as Json), creators: runtimeRbacCreators(build.model) };
    built.set(name, b);
  }
  return b;
}

describeWithApiServer('run-time roles and bindings, created on a real API server as the controllers that create them', (server) => {
  beforeAll(async () => {
    await new KubeClient(server().kubeConfig).apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: TEST_NS } } as any, { fieldManager: FIELD_MANAGER });
  });

  test('the default platforms declare run-time RBAC of every controller that creates it', () => {
    const creators = DEFAULT_PLATFORMS.flatMap((p) => platform(p.name).creators.map((c) => `${c.component.componentName}/${c.creator.name}`));
    expect([...new Set(creators)].sort()).toEqual([
      'codeflare/codeflare-operator-manager',
      'data-science-pipelines-operator/data-science-pipelines-operator-controller-manager',
      'katib/katib-controller',
      'kserve/llmisvc-controller-manager',
      'kuberay/kuberay-operator',
      'llama-stack-k8s-operator/llama-stack-k8s-operator-controller-manager',
      'mlflow-operator/mlflow-operator-controller-manager',
      'model-registry-operator/model-registry-operator-controller-manager',
      'models-as-a-service/maas-controller',
      'notebook-controller/odh-notebook-controller-manager',
      'odh-model-controller/odh-model-controller',
      'profile-controller/profiles-deployment',
      'training-operator/training-operator',
    ]);
  });

  test.each(DEFAULT_PLATFORMS.map((p) => p.name))('%s: the server lets each controller create every role and binding it declares, as MLP031 says', async (name) => {
    const p = platform(name);
    const r = await runRound(server(), p.objects, p.creators);
    expect(r.applyErrors).toEqual([]);
    expect(r.declared).toBe(p.creators.reduce((n, c) => n + c.grants.length, 0));
    expect(r.refused).toEqual([]);
    expect(r.disagreements).toEqual([]);
  }, 180_000);

  test('KSERVE-EPP-ROLE: the server lets llmisvc-controller-manager create <llmisvc>-epp-role, and refuses it once its ClusterRole lacks inferencemodels', async () => {
    const build = buildPlatform(new ServingPlatform(new App({ outdir: '/nonexistent' }), 'serving'));
    const creators = runtimeRbacCreators(build.model).filter((c) => c.creator.name === 'llmisvc-controller-manager');
    const epp = creators[0]?.grants.find((g) => g.name === '<llmisvc>-epp-role');
    expect(epp).toBeDefined();
    const only = creators.map((c) => ({ ...c, grants: [epp!] }));
    const objects = build.model.objects.map((o) => o.json as Json);
    expect((await runRound(server(), objects, only)).refused).toEqual([]);
    // The controller's ClusterRole without inferencemodels, as the left-out RBAC had it.
    const narrowed = await runRound(server(), objects, only, (objs) => objs.map((o) => (o.kind === 'ClusterRole' && o.metadata.name === 'llmisvc-controller-manager-role'
      ? { ...o, rules: (o.rules as PolicyRule[]).map((r) => ({ ...r, resources: r.resources?.filter((x) => x !== 'inferencemodels') })).filter((r) => r.nonResourceURLs || r.resources?.length) }
      : o)));
    expect(narrowed.refused).toHaveLength(1);
    expect(narrowed.refused[0]).toMatch(/^kserve kserve\/llmisvc-controller-manager Role <llmisvc>-epp-role: .*forbidden: user "system:serviceaccount:kserve:llmisvc-controller-manager".* is attempting to grant RBAC permissions not currently held:.*inferencemodels/s);
    // MLP031 said the same of both.
    expect(narrowed.disagreements).toEqual([]);
  }, 180_000);
});
