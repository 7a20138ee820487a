import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { Controller } from '../../lib/controller';
import { bindingObject } from '../../lib/rbac';

/** The aggregated API Kueue's manager serves pending-workload views on. */
export const VISIBILITY_GROUP = 'visibility.kueue.x-k8s.io';

export interface KueueVisibilityServerProps {
  /** The manager that serves the API (its pods back the Service). */
  readonly controller: Controller;
  /** The manager's container port of the visibility server. @default 8082 */
  readonly port?: number;
  /** @default kueue-visibility-server */
  readonly serviceName?: string;
  /** Served versions, one APIService each. @default ['v1beta1', 'v1beta2'] */
  readonly versions?: string[];
}

/**
 * Kueue's visibility API (visibility.kueue.x-k8s.io): one APIService per version, the
 * Service in front of the manager's visibility port, and the RoleBinding in kube-system that
 * lets the manager read the extension-apiserver-authentication ConfigMap (as upstream's
 * config/components/visibility). Delegated authentication and authorization use the
 * tokenreviews/subjectaccessreviews grants of the manager's metrics authentication role.
 */
export class KueueVisibilityServer extends Construct {
  public readonly service: ApiObject;
  public readonly apiServices: ApiObject[];

  constructor(scope: Construct, id: string, props: KueueVisibilityServerProps) {
    super(scope, id);
    const c = props.controller;
    const serviceName = props.serviceName ?? 'kueue-visibility-server';
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: { name: serviceName, namespace: c.namespace, labels: c.selectorLabels },
      spec: {
        selector: c.selectorLabels,
        ports: [{ name: 'https', port: 443, targetPort: k8s.IntOrString.fromNumber(props.port ?? 8082), protocol: 'TCP' }],
      },
    });
    // Upstream serves the API with a self-signed certificate and registers it with
    // insecureSkipTLSVerify; we keep that (there is no caBundle to inject). The inventory
    // gives these fields for v1beta2; v1beta1's are the same in upstream's
    // apiservice_v1beta1.yaml (read at a later commit than v0.19.2).
    this.apiServices = (props.versions ?? ['v1beta1', 'v1beta2']).map((version) => new ApiObject(this, `APIService-${version}`, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: `${version}.${VISIBILITY_GROUP}`, labels: c.selectorLabels },
      spec: {
        group: VISIBILITY_GROUP,
        version,
        groupPriorityMinimum: 100,
        versionPriority: 100,
        insecureSkipTLSVerify: true,
        service: { name: serviceName, namespace: c.namespace },
      },
    }));
    bindingObject(this, 'AuthReaderRoleBinding', {
      name: `${serviceName}-auth-reader`,
      namespace: 'kube-system',
      labels: c.selectorLabels,
      roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      serviceAccounts: [{ name: c.name, namespace: c.namespace }],
    });
  }
}
