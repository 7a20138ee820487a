import { App } from 'cdk8s';
import { Construct } from 'constructs';
import { CertManager } from '../../../constructs/cert-manager';
import { JobSet } from '../../../constructs/jobset';
import { Kueue } from '../../../constructs/kueue';
import { CertificateProvider } from '../../../lib/certificates';
import { Platform } from '../../../lib/platform';
import { buildPlatform, PlatformBuild } from '../../../lib/synth';

export interface FixtureOptions {
  readonly certificates?: CertificateProvider;
  readonly registryMirror?: string;
  readonly replicas?: number;
}

/**
 * A small real platform with every kind of phase: cert-manager (infrastructure phases, CA
 * injection), Kueue (self-rotating certificates, aggregated ClusterRoles, queues as custom
 * resources) and JobSet.
 */
export function gitopsPlatform(scope: Construct = new App({ outdir: '/nonexistent' }), name = 'gitops-test', options: FixtureOptions = {}): Platform {
  const p = new Platform(scope, name, {
    name,
    certificates: options.certificates ?? CertificateProvider.selfManaged(),
    images: options.registryMirror ? { registryMirror: options.registryMirror } : undefined,
  });
  new CertManager(p, 'cert-manager');
  new JobSet(p, 'jobset');
  const kueue = new Kueue(p, 'kueue', { replicas: options.replicas });
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
