import { ImageSpec } from '../../lib/images';

/** The Spark Operator release modelled (Helm chart and appVersion 2.5.2, tag 2026-07-30). */
export const SPARK_OPERATOR_VERSION = '2.5.2';

/** Every image the Spark Operator component runs, by key: one image serves the controller and the webhook. */
export const SPARK_OPERATOR_IMAGES: Readonly<Record<'operator', ImageSpec>> = Object.freeze({
  operator: { repository: 'ghcr.io/kubeflow/spark-operator/controller', tag: SPARK_OPERATOR_VERSION },
});
