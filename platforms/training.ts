import { Construct } from 'constructs';
import { CodeFlareOperatorProps } from '../constructs/codeflare';
import { DistributedWorkloads } from '../constructs/distributed-workloads';
import { SparkOperator, SparkOperatorProps } from '../constructs/spark-operator';
import { TrainingOperator, TrainingOperatorProps } from '../constructs/training-operator';
import { CertificateProvider } from '../lib/certificates';
import { PlatformCustomization } from '../lib/customization';
import { Platform } from '../lib/platform';
import { ODH_OPERATOR } from '../lib/prerequisites';
import { checkPropKeys } from '../lib/prop-keys';

export interface TrainingPlatformProps extends PlatformCustomization {
  /** @default training */
  readonly name?: string;
  /**
   * Where webhook certificates come from. Every training operator here can rotate its own.
   * @default CertificateProvider.selfManaged()
   */
  readonly certificates?: CertificateProvider;
  readonly trainingOperator?: TrainingOperatorProps;
  readonly sparkOperator?: SparkOperatorProps;
  /**
   * CodeFlare; it needs Open Data Hub's DSCInitialization on the cluster (declared as a
   * prerequisite when on). `false` leaves it out.
   * @default { ingressDomain: 'apps.example.com' }
   */
  readonly codeFlare?: CodeFlareOperatorProps | false;
  /** Namespaces whose batch users get a LocalQueue of the default ClusterQueue. @default ['default'] */
  readonly queueNamespaces?: string[];
}

/**
 * Training and batch: Kueue managing the jobs of Kubeflow Trainer (with JobSet), the
 * training-operator, KubeRay, AppWrapper and the Spark Operator, plus CodeFlare, with a
 * default ResourceFlavor, ClusterQueue and LocalQueues so that queued jobs run out of the box.
 */
export class TrainingPlatform extends Platform {
  public readonly workloads: DistributedWorkloads;
  public readonly trainingOperator: TrainingOperator;
  public readonly sparkOperator: SparkOperator;

  constructor(scope: Construct, id: string, props: TrainingPlatformProps = {}) {
    const { name, trainingOperator, sparkOperator, codeFlare: codeFlareProps, queueNamespaces, ...customization } = props;
    const codeFlare = codeFlareProps === false ? false : codeFlareProps ?? { ingressDomain: 'apps.example.com' };
    super(scope, id, {
      ...customization,
      name: name ?? 'training',
      certificates: customization.certificates ?? CertificateProvider.selfManaged(),
      prerequisites: codeFlare ? [ODH_OPERATOR] : [],
    });
    // A misspelled prop fails ("did you mean") rather than being ignored where nothing type-checks it.
    checkPropKeys(this, new.target.name, props);
    this.trainingOperator = new TrainingOperator(this, 'training-operator', trainingOperator);
    this.sparkOperator = new SparkOperator(this, 'spark-operator', sparkOperator);
    this.workloads = DistributedWorkloads.addTo(this, {
      codeFlare,
      kueue: {
        integrations: [
          'kubeflow.org/pytorchjob', 'kubeflow.org/tfjob', 'kubeflow.org/xgboostjob', 'kubeflow.org/paddlejob', 'kubeflow.org/jaxjob',
          'ray.io/rayservice', 'sparkoperator.k8s.io/sparkapplication',
        ],
      },
    });
    const kueue = this.workloads.kueue;
    kueue.addResourceFlavor('default-flavor');
    const cq = kueue.addClusterQueue('cluster-queue', {
      spec: {
        namespaceSelector: {},
        resourceGroups: [{
          coveredResources: ['cpu', 'memory'],
          flavors: [{ name: 'default-flavor', resources: [{ name: 'cpu', nominalQuota: '64' }, { name: 'memory', nominalQuota: '256Gi' }] }],
        }],
      },
    });
    for (const ns of queueNamespaces ?? ['default']) kueue.addLocalQueue(`user-queue-${ns}`, { namespace: ns, name: 'user-queue', clusterQueue: cq });
  }
}
