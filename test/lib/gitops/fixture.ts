import { App } from 'cdk8s';
import { CertManager } from '../../../constructs/cert-manager';
import { JobSet } from '../../../constructs/jobset';
import { Kueue } from '../../../constructs/kueue';
import { CertificateProvider } from '../../../lib/certificates';
import { Platform } from '../../../lib/platform';
import { buildPlatform, PlatformBuild } from '../../../lib/synth';

/**
 * A small real platform with every phase: cert-manager (infrastructure phases, CA
 * injection), Kueue (self-rotating certificates, aggregated ClusterRoles, queues as custom
 * resources) and JobSet (a CRD too large for client-side apply).
 */
export function gitopsPlatform(app: App = new App({ outdir: '/nonexistent' }), name = 'gitops-test'): Platform {
  const p = new Platform(app, name, { name, certificates: CertificateProvider.selfManaged() });
  new CertManager(p, 'cert-manager');
  new JobSet(p, 'jobset');
  const kueue = new Kueue(p, 'kueue');
  kueue.addResourceFlavor('default-flavor');
  kueue.addClusterQueue('cluster-queue', {
    spec: {
      namespaceSelector: {},
      resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'default-flavor', resources: [{ name: 'cpu', nominalQuota: '8' }] }] }],
    },
  });
  return p;
}

export function gitopsBuild(): PlatformBuild {
  return buildPlatform(gitopsPlatform());
}
