import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';

/** A minimal PipelineVersion, to show that a runtime-created webhook intercepts it. */
export class PipelinesVersionOutline extends ApiObject {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      apiVersion: 'pipelines.kubeflow.org/v2beta1',
      kind: 'PipelineVersion',
      metadata: { name: 'sample', namespace: 'opendatahub' },
      spec: { pipelineName: 'sample', pipelineSpec: { pipelineInfo: { name: 'sample' } } },
    });
  }
}
