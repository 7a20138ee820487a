import { App } from 'cdk8s';
import { ArgoWorkflows } from '../../../constructs/argo-workflows';
import { KubeflowPipelines, KubeflowPipelinesProps, TenantObjectStoreAccess } from '../../../constructs/kubeflow-pipelines';
import { CERT_MANAGER, Prerequisite } from '../../../lib/component';
import { Platform, PlatformError } from '../../../lib/platform';
import { ISTIO } from '../../../lib/prerequisites';
import { buildPlatform } from '../../../lib/synth';
import { objectsOf } from '../support/objects';

function build(props: KubeflowPipelinesProps, prerequisites: Prerequisite[] = [CERT_MANAGER, ISTIO]) {
  const p = new Platform(new App(), 'p', { name: 'kfp', prerequisites });
  new ArgoWorkflows(p, 'argo-workflows');
  new KubeflowPipelines(p, 'kubeflow-pipelines', props);
  return objectsOf(buildPlatform(p), 'kubeflow-pipelines');
}

const sa = (name: string) => `cluster.local/ns/kubeflow/sa/${name}`;
const PIPELINE_ACCOUNTS = ['ml-pipeline', 'ml-pipeline-ui', 'ml-pipeline-persistenceagent', 'ml-pipeline-scheduledworkflow', 'ml-pipeline-viewer-crd-service-account', 'kubeflow-pipelines-cache'].map(sa);

describe('KFP-ISOLATION: upstream 2.17.0\'s NetworkPolicy and AuthorizationPolicies', () => {
  const single = build({});
  const multi = build({ multiUser: true });

  test('KFP-ISOLATION: both installs fence SeaweedFS: S3 from profile and own-namespace pods, everything from istio-system', () => {
    for (const o of [single, multi]) {
      expect(o.ofKind('NetworkPolicy').map((n) => n.metadata.name)).toEqual(['seaweedfs']);
      // Multi-user adds the profile hook's access to the IAM API (KFP-TENANT-S3), checked in profile-hook.test.ts.
      const spec = o.named('NetworkPolicy', 'seaweedfs').spec;
      expect({ ...spec, ingress: spec.ingress.slice(0, 3) }).toEqual({
        podSelector: { matchLabels: { app: 'seaweedfs' } },
        policyTypes: ['Ingress'],
        ingress: [
          { from: [{ namespaceSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'kubeflow-profile' } } }], ports: [{ port: 8333, protocol: 'TCP' }] },
          { from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['istio-system'] }] } }] },
          { from: [{ podSelector: {} }], ports: [{ port: 8333, protocol: 'TCP' }] },
        ],
      });
      expect(spec.ingress).toHaveLength(o === multi ? 4 : 3);
    }
    // The S3 port the policy admits is the one SeaweedFS serves.
    expect(single.named('Deployment', 'seaweedfs').spec.template.spec.containers[0].ports.map((p: any) => p.containerPort)).toContain(8333);
  });

  test('KFP-ISOLATION: single-user ships no AuthorizationPolicy (as upstream\'s platform-agnostic install)', () => {
    expect(single.ofKind('AuthorizationPolicy')).toEqual([]);
  });

  test('KFP-ISOLATION: multi-user ships upstream\'s seven AuthorizationPolicies, each on its workload\'s pods', () => {
    const byName = Object.fromEntries(multi.ofKind('AuthorizationPolicy').map((a) => [a.metadata.name, a.spec]));
    expect(Object.keys(byName).sort()).toEqual(['metadata-grpc-service', 'ml-pipeline', 'ml-pipeline-ui', 'ml-pipeline-visualizationserver', 'mysql', 'seaweedfs-service', 'service-cache-server']);
    expect(byName['ml-pipeline']).toEqual({
      selector: { matchLabels: { app: 'ml-pipeline' } },
      rules: [
        { from: [{ source: { principals: PIPELINE_ACCOUNTS } }] },
        { when: [{ key: 'request.headers[kubeflow-userid]', notValues: ['*'] }] },
      ],
    });
    expect(byName['ml-pipeline-ui']).toEqual({
      selector: { matchLabels: { app: 'ml-pipeline-ui' } },
      rules: [
        { from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] },
        { when: [{ key: 'request.headers[authorization]', values: ['*'] }, { key: 'request.headers[kubeflow-userid]', notValues: ['*'] }] },
      ],
    });
    expect(byName['ml-pipeline-visualizationserver'].rules).toEqual([{ from: [{ source: { principals: PIPELINE_ACCOUNTS } }] }]);
    expect(byName.mysql).toEqual({ selector: { matchLabels: { app: 'mysql' } }, rules: [{ from: [{ source: { principals: [...PIPELINE_ACCOUNTS, sa('metadata-grpc-server')] } }] }] });
    expect(byName['seaweedfs-service']).toEqual({
      action: 'ALLOW',
      selector: { matchLabels: { app: 'seaweedfs' } },
      rules: [{ from: [{ source: { principals: [sa('ml-pipeline')] } }] }, { from: [{ source: { principals: [sa('ml-pipeline-ui')] } }] }, {}],
    });
    expect(byName['metadata-grpc-service']).toEqual({ action: 'ALLOW', selector: { matchLabels: { component: 'metadata-grpc-server' } }, rules: [{}] });
    expect(byName['service-cache-server']).toEqual({ selector: { matchLabels: { app: 'cache-server' } }, rules: [{}] });
  });

  test('KFP-ISOLATION: every principal is the ServiceAccount of a workload in the output', () => {
    const accounts = new Set(multi.ofKind('ServiceAccount').map((s) => sa(s.metadata.name)));
    const principals = multi.ofKind('AuthorizationPolicy').flatMap((a) => a.spec.rules.flatMap((r: any) => (r.from ?? []).flatMap((f: any) => f.source.principals)));
    expect(principals.filter((p: string) => !p.startsWith('cluster.local/ns/istio-system/') && !accounts.has(p))).toEqual([]);
  });

  test('KFP-ISOLATION: without the cache or the included stores, their policies and principals go too', () => {
    const o = build({ multiUser: true, cache: false, database: { external: { host: 'db.example.com' } }, objectStore: { external: { host: 's3.example.com' } }, tenantObjectStoreAccess: TenantObjectStoreAccess.SHARED_ADMIN_CREDENTIALS });
    expect(o.ofKind('NetworkPolicy')).toEqual([]);
    expect(o.ofKind('AuthorizationPolicy').map((a) => a.metadata.name).sort()).toEqual(['metadata-grpc-service', 'ml-pipeline', 'ml-pipeline-ui', 'ml-pipeline-visualizationserver']);
    expect(o.named('AuthorizationPolicy', 'ml-pipeline').spec.rules[0].from[0].source.principals).not.toContain(sa('kubeflow-pipelines-cache'));
  });

  test('KFP-SIDECAR: multi-user labels its namespace for sidecar injection, so that its AuthorizationPolicies are enforced', () => {
    expect(multi.named('Namespace', 'kubeflow').metadata.labels).toEqual({ 'istio-injection': 'enabled' });
    expect(single.named('Namespace', 'kubeflow').metadata.labels).toBeUndefined();
    // Upstream's opt-outs only: the metadata envoy, the profile hook and metacontroller.
    const optedOut = multi.ofKind('Deployment').concat(multi.ofKind('StatefulSet')).filter((d) => d.spec.template.metadata.labels['sidecar.istio.io/inject'] === 'false').map((d) => d.metadata.name);
    expect(optedOut.sort()).toEqual(['kubeflow-pipelines-profile-controller', 'metacontroller', 'metadata-envoy-deployment']);
  });

  test('KFP-SIDECAR: synth fails when the user turns injection off, naming the policies and the user header the API server and UI trust (MLP061, MLP062)', () => {
    const p = new Platform(new App(), 'p', { name: 'kfp', prerequisites: [CERT_MANAGER, ISTIO], namespaces: { labels: { kubeflow: { 'istio-injection': 'disabled' } } } });
    new ArgoWorkflows(p, 'argo-workflows');
    new KubeflowPipelines(p, 'kubeflow-pipelines', { multiUser: true });
    let problems: string[] = [];
    try {
      buildPlatform(p);
    } catch (e) {
      problems = (e as PlatformError).problems;
    }
    expect(problems.filter((x) => x.startsWith('[MLP061]'))).toHaveLength(7);
    expect(problems.filter((x) => x.startsWith('[MLP062]')).map((x) => x.split(' trusts ')[0])).toEqual([
      '[MLP062] p/kubeflow-pipelines/ApiServer/Deployment: Deployment ml-pipeline (p/kubeflow-pipelines/ApiServer/Deployment) in namespace kubeflow',
      '[MLP062] p/kubeflow-pipelines/Ui/Deployment: Deployment ml-pipeline-ui (p/kubeflow-pipelines/Ui/Deployment) in namespace kubeflow',
    ]);
    expect(problems.find((x) => x.startsWith('[MLP062]'))).toContain('trusts the user named in the kubeflow-userid header, which only Istio keeps callers from forging, but AuthorizationPolicy ml-pipeline selects its pods, but they get no Istio sidecar (namespace kubeflow is labelled istio-injection=disabled');
  });

  test('KFP-ISOLATION: fails when multi-user runs on a platform without Istio (the user header would be anyone\'s)', () => {
    let problems: string[] = [];
    try {
      build({ multiUser: true, istioGateway: false }, [CERT_MANAGER]);
    } catch (e) {
      problems = (e as PlatformError).problems;
    }
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toContain("component 'kubeflow-pipelines' (KubeflowPipelines) requires security.istio.io/AuthorizationPolicy (multi-user Kubeflow Pipelines takes the user from the kubeflow-userid header, which only Istio's AuthorizationPolicy ml-pipeline keeps callers from setting; declare Istio (prerequisites: [ISTIO]) or use multiUser: false)");
  });
});
