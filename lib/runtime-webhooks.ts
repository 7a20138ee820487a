import type { LabelSelector, WebhookRule } from './webhook-rules';

/**
 * A webhook configuration that a component's operator creates at run time rather than
 * shipping it (e.g. Data Science Pipelines' PipelineVersion webhooks, created once a
 * DSPA uses Kubernetes-native pipeline storage). It is not in the output, but it
 * intercepts its kinds once the operator runs: the checks (MLP022) and the report
 * account for it.
 */
export interface RuntimeWebhook {
  readonly type: 'mutating' | 'validating';
  /** Name of the webhook configuration the operator creates. */
  readonly configurationName: string;
  /** Name of the webhook within it. */
  readonly name: string;
  /** The Deployment (in the component's namespace) that creates it. */
  readonly createdBy: string;
  /** When the operator creates it, in words. */
  readonly when: string;
  /** Where it will point (Service namespace/name:port/path), for the report. */
  readonly service: { readonly name: string; readonly namespace: string; readonly port: number; readonly path: string };
  readonly rules: WebhookRule[];
  /** @default Fail */
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
}

/** Checks a declaration; throws with the path, the field and the fix. */
export function validateRuntimeWebhook(where: string, w: RuntimeWebhook): void {
  if (!w.rules.length) throw new Error(`${where}: runtime webhook ${w.name} has no rules; list the kinds it intercepts`);
  if (!w.createdBy) throw new Error(`${where}: runtime webhook ${w.name} has no createdBy; name the Deployment that creates it`);
  if (!w.service.path.startsWith('/')) throw new Error(`${where}: runtime webhook ${w.name} path '${w.service.path}' must start with /`);
}
