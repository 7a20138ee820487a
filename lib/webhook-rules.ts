// What a webhook intercepts, shared by the webhooks a component ships (webhook-server.ts)
// and the ones its operator creates at run time (runtime-webhooks.ts). Apart from both so
// that neither imports the other.

export type WebhookOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface WebhookRule {
  readonly apiGroups: string[];
  readonly apiVersions: string[];
  readonly resources: string[];
  readonly operations: WebhookOperation[];
  /** @default '*' */
  readonly scope?: 'Cluster' | 'Namespaced' | '*';
}

export interface LabelSelector {
  readonly matchLabels?: Record<string, string>;
  readonly matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}
