import { ImageSpec } from '../../lib/images';

/** Katib v0.19.0: the tags upstream's manifests pin at that release (ghcr.io/kubeflow/katib). */
export const KATIB_VERSION = 'v0.19.0';

const katib = (name: string): ImageSpec => ({ repository: `ghcr.io/kubeflow/katib/${name}`, tag: KATIB_VERSION });

export type KatibImageKey =
  | 'controller' | 'dbManager' | 'ui' | 'mysql'
  | 'suggestionHyperopt' | 'suggestionOptuna' | 'suggestionHyperband' | 'suggestionSkopt' | 'suggestionGoptuna'
  | 'suggestionEnas' | 'suggestionDarts' | 'suggestionPbt' | 'earlyStoppingMedianStop'
  | 'fileMetricsCollector' | 'tfeventMetricsCollector';

/**
 * Every image Katib runs: its three workloads, the included MySQL, and the images the
 * controller starts at run time (suggestion services, early stopping, metrics-collector
 * sidecars), which go into the KatibConfig so that a mirror or override reaches them too.
 */
export const KATIB_IMAGES: Readonly<Record<KatibImageKey, ImageSpec>> = Object.freeze({
  controller: katib('katib-controller'),
  dbManager: katib('katib-db-manager'),
  ui: katib('katib-ui'),
  mysql: { repository: 'mysql', tag: '8.0.29' },
  suggestionHyperopt: katib('suggestion-hyperopt'),
  suggestionOptuna: katib('suggestion-optuna'),
  suggestionHyperband: katib('suggestion-hyperband'),
  suggestionSkopt: katib('suggestion-skopt'),
  suggestionGoptuna: katib('suggestion-goptuna'),
  suggestionEnas: katib('suggestion-enas'),
  suggestionDarts: katib('suggestion-darts'),
  suggestionPbt: katib('suggestion-pbt'),
  earlyStoppingMedianStop: katib('earlystopping-medianstop'),
  fileMetricsCollector: katib('file-metrics-collector'),
  tfeventMetricsCollector: katib('tfevent-metrics-collector'),
});
