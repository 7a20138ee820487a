import { dynamicAllocation, embeddedService, SPARK_CRD_ANNOTATIONS, SPARK_GROUP } from './common';
import { CrdDefinition, CrdScope, PrinterColumn } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

const printerColumns: PrinterColumn[] = [
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'Status', type: 'string', jsonPath: '.status.state' },
  { name: 'PodName', type: 'string', jsonPath: '.status.server.podName' },
];

const podTemplate = () => s.object({}, { preserveUnknownFields: true }).describe('A pod template for the Spark pods (kept as given).');

/** sparkoperator.k8s.io/v1alpha1 SparkConnect: a long-running Spark Connect server and its executors. */
export const sparkConnectCrd: CrdDefinition = {
  group: SPARK_GROUP,
  kind: 'SparkConnect',
  plural: 'sparkconnects',
  shortNames: ['sparkconn'],
  scope: CrdScope.NAMESPACED,
  annotations: SPARK_CRD_ANNOTATIONS,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    schema: s.object({
      metadata: s.object().required(),
      spec: s.object({
        dynamicAllocation: dynamicAllocation(),
        executor: s.object({
          cores: s.int32({ minimum: 1 }),
          instances: s.int32({ minimum: 0 }),
          memory: s.string(),
          template: podTemplate(),
        }).named('SparkConnectExecutorSpec').required(),
        hadoopConf: s.stringMap(),
        image: s.string(),
        server: s.object({
          cores: s.int32({ minimum: 1 }),
          memory: s.string(),
          service: embeddedService(),
          template: podTemplate(),
        }).named('SparkConnectServerSpec').required(),
        sparkConf: s.stringMap(),
        sparkVersion: s.string().required(),
      }).named('SparkConnectSpec').required(),
      status: s.object({
        conditions: metav1Conditions(),
        executors: s.map(s.integer()),
        lastUpdateTime: s.dateTime(),
        server: s.object({ podIp: s.string(), podName: s.string(), serviceName: s.string() }).named('SparkConnectServerStatus'),
        startTime: s.dateTime(),
        state: s.string(),
      }).named('SparkConnectStatus'),
    }),
    subresources: { status: true },
    printerColumns,
  }],
};
