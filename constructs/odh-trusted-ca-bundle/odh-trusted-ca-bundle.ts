import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Component, ComponentProps } from '../../lib/component';
import type { Platform } from '../../lib/platform';

export interface OdhTrustedCaBundleProps extends ComponentProps {
  /** The namespace of the first copy (the applications namespace). @default opendatahub */
  readonly namespace?: string;
  /** PEM certificates of the custom bundle (odh-ca-bundle.crt). @default '' */
  readonly customCABundle?: string;
  /** Further namespaces that get a copy (e.g. the workbench namespace). @default none */
  readonly alsoIn?: readonly string[];
}

/** The ConfigMap's name and key, as Open Data Hub components mount it. */
export const ODH_TRUSTED_CA_BUNDLE = { name: 'odh-trusted-ca-bundle', customKey: 'odh-ca-bundle.crt' } as const;

/**
 * The trusted CA bundle the ODH operator keeps for a DSCInitialization with
 * spec.trustedCABundle Managed: the odh-trusted-ca-bundle ConfigMap, its custom certificates
 * in odh-ca-bundle.crt (trimmed, one final newline, as the operator writes them) and the label
 * that makes OpenShift's network operator inject the cluster's trusted bundle (ca-bundle.crt).
 * Components and workbenches mount it by name; no controller runs here.
 */
export class OdhTrustedCaBundle extends Component {
  public readonly images = {};

  constructor(scope: Platform, id: string, props: OdhTrustedCaBundleProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub', props);
    this.addNamespace();
    const data = { [ODH_TRUSTED_CA_BUNDLE.customKey]: `${(props.customCABundle ?? '').trim()}\n` };
    const labels = { 'app.kubernetes.io/part-of': 'opendatahub-operator', 'config.openshift.io/inject-trusted-cabundle': 'true' };
    for (const ns of [...new Set([this.namespaceName, ...(props.alsoIn ?? [])])]) {
      new k8s.KubeConfigMap(this, `ConfigMap-${ns}`, { metadata: { name: ODH_TRUSTED_CA_BUNDLE.name, namespace: ns, labels }, data });
    }
  }
}
