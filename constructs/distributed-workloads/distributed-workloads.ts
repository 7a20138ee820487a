import type { Platform } from '../../lib/platform';
import { AppWrapperOperator, AppWrapperOperatorProps } from '../appwrapper';
import { CodeFlareOperator, CodeFlareOperatorProps } from '../codeflare';
import { JobSet, JobSetProps } from '../jobset';
import { KubeRay, KubeRayProps } from '../kuberay';
import { Kueue, KueueIntegration, KueueProps } from '../kueue';
import { Trainer, TrainerProps } from '../trainer';

export interface DistributedWorkloadsProps {
  /** Kueue's props; its job integrations are derived from the members present (extra ones may be added). */
  readonly kueue?: KueueProps;
  readonly kubeRay?: KubeRayProps;
  /** Trainer and its JobSet; `false` leaves both out. */
  readonly trainer?: TrainerProps | false;
  readonly jobSet?: JobSetProps;
  /** The standalone AppWrapper controller; `false` leaves it out. */
  readonly appWrapper?: AppWrapperOperatorProps | false;
  /**
   * CodeFlare (Open Data Hub's Ray add-ons: RayCluster webhooks, dashboards, mTLS). It reads
   * ODH's DSCInitialization, so it belongs where the ODH operator runs.
   * @default false
   */
  readonly codeFlare?: CodeFlareOperatorProps | false;
}

/**
 * What Open Data Hub calls "distributed workloads": not an upstream component but a
 * composition of Kueue with the job operators it queues (KubeRay, Trainer with JobSet,
 * AppWrapper) and optionally CodeFlare. It adds those components to a platform, wired
 * together: Kueue's integrations follow the members present, and CodeFlare leaves AppWrapper
 * to the standalone controller.
 */
export class DistributedWorkloads {
  /** Adds the composition to `platform`, with component ids kueue, kuberay, jobset, trainer, appwrapper, codeflare. */
  public static addTo(platform: Platform, props: DistributedWorkloadsProps = {}): DistributedWorkloads {
    return new DistributedWorkloads(platform, props);
  }

  public readonly kueue: Kueue;
  public readonly kubeRay: KubeRay;
  public readonly jobSet?: JobSet;
  public readonly trainer?: Trainer;
  public readonly appWrapper?: AppWrapperOperator;
  public readonly codeFlare?: CodeFlareOperator;

  private constructor(platform: Platform, props: DistributedWorkloadsProps) {
    // Members the platform's customization turns off are left out, with their Kueue integrations.
    const on = (id: string) => platform.isComponentEnabled(id);
    this.kubeRay = new KubeRay(platform, 'kuberay', props.kubeRay);
    if (props.trainer !== false && on('trainer')) {
      this.jobSet = new JobSet(platform, 'jobset', props.jobSet);
      this.trainer = new Trainer(platform, 'trainer', props.trainer);
    } else if (on('jobset')) {
      this.jobSet = new JobSet(platform, 'jobset', props.jobSet);
    }
    if (props.appWrapper !== false && on('appwrapper')) this.appWrapper = new AppWrapperOperator(platform, 'appwrapper', props.appWrapper ?? {});
    if (props.codeFlare && on('codeflare')) {
      if (props.codeFlare.appWrapper && this.appWrapper) {
        throw new Error(`${platform.node.path}: distributed workloads: codeFlare.appWrapper runs a second AppWrapper controller next to the standalone one; leave codeFlare.appWrapper off or set appWrapper: false`);
      }
      this.codeFlare = new CodeFlareOperator(platform, 'codeflare', props.codeFlare);
    }
    const integrations: KueueIntegration[] = [
      'batch/job',
      ...(on('kuberay') ? ['ray.io/rayjob' as const, 'ray.io/raycluster' as const] : []),
      ...(this.jobSet ? ['jobset.x-k8s.io/jobset' as const] : []),
      ...(this.trainer ? ['trainer.kubeflow.org/trainjob' as const] : []),
      ...(this.appWrapper ? ['workload.codeflare.dev/appwrapper' as const] : []),
    ];
    this.kueue = new Kueue(platform, 'kueue', {
      ...props.kueue,
      integrations: [...new Set([...integrations, ...(props.kueue?.integrations ?? [])])],
    });
  }
}
