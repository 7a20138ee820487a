import { CRDS } from './crds';
import { LLM_D_ROUTER_VERSION } from './crds/common';
import { LLM_D_ROUTER_IMAGES } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { EndpointPickerImplementation, EndpointPickerPluginConfig } from '../gateway-api-inference-extension/endpoint-picker';
import { GatewayApiInferenceExtension } from '../gateway-api-inference-extension/gateway-api-inference-extension';

/** The port llm-d's scheduler receives KV-cache events from model servers on (ZMQ). */
export const KV_EVENTS_PORT = 5557;

export interface LlmDRouterProps extends ComponentProps {}

export interface LlmDSchedulerOptions {
  /**
   * Plugin configuration (apiVersion llm-d.ai/v1alpha1, kind EndpointPickerConfig).
   * @default - the scheduler's built-in default profile
   */
  readonly pluginConfig?: EndpointPickerPluginConfig;
  /** Expose the ZMQ port (5557) on which model servers publish KV-cache events. @default false */
  readonly kvCacheEvents?: boolean;
  /** Turn on tracing (--tracing). @default false */
  readonly tracing?: boolean;
  /** Extra flags, e.g. { v: '3' }. */
  readonly flags?: Record<string, string>;
  /** @default upstream's: requests 8 CPU / 8Gi, limit 16Gi memory */
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
}

const RESERVED_FLAGS = ['pool-name', 'pool-namespace', 'pool-group', 'zap-encoder', 'config-file', 'grpc-health-port', 'tracing', 'ha-enable-leader-election'];

/**
 * The llm-d router v0.10.0 (llm-d/llm-d-router, formerly llm-d-inference-scheduler): the
 * llm-d.ai InferenceObjective and InferenceModelRewrite CRDs, and its scheduler, an endpoint
 * picker for InferencePools. It runs no controller of its own: a pool runs the scheduler
 * (`gie.addInferencePool(id, { ..., picker: router.scheduler() })`).
 */
export class LlmDRouter extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return LLM_D_ROUTER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = LLM_D_ROUTER_IMAGES;

  constructor(scope: Platform, id: string, props: LlmDRouterProps = {}) {
    super(scope, id, props.namespace ?? 'llm-d', props);
    for (const def of CRDS) this.addCrd(def);
    this.require({
      group: 'inference.networking.k8s.io',
      kind: 'InferencePool',
      reason: 'its scheduler picks endpoints of InferencePools, and objectives and rewrites refer to pools',
      providedBy: GatewayApiInferenceExtension,
    });
  }

  /** llm-d's scheduler as the endpoint picker of a pool. */
  public scheduler(options: LlmDSchedulerOptions = {}): EndpointPickerImplementation {
    for (const flag of Object.keys(options.flags ?? {})) {
      if (RESERVED_FLAGS.includes(flag)) {
        throw new Error(`${this.node.path}: scheduler flags: --${flag} is set by the construct; use the typed option (pluginConfig, tracing, replicas of the pool) instead`);
      }
    }
    if (options.pluginConfig && options.pluginConfig.apiVersion !== 'llm-d.ai/v1alpha1') {
      throw new Error(`${this.node.path}: scheduler pluginConfig: apiVersion '${options.pluginConfig.apiVersion}' is not read by llm-d router ${LLM_D_ROUTER_VERSION}; use llm-d.ai/v1alpha1`);
    }
    return {
      description: `llm-d router scheduler ${LLM_D_ROUTER_VERSION}`,
      image: this.image('endpointPicker'),
      pluginConfig: options.pluginConfig,
      explicitPoolFlags: true,
      leaderElectionFlag: 'ha-enable-leader-election',
      flags: { 'grpc-health-port': '9003', 'tracing': String(options.tracing ?? false), ...(options.flags ?? {}) },
      // Its charts grant both: the llm-d.ai kinds and their inference.networking.x-k8s.io predecessors.
      objectiveGroups: ['inference.networking.x-k8s.io', 'llm-d.ai'],
      extraPorts: options.kvCacheEvents ? [{ name: 'zmq', containerPort: KV_EVENTS_PORT }] : undefined,
      resources: options.resources ?? { requests: { cpu: '8', memory: '8Gi' }, limits: { memory: '16Gi' } },
    };
  }
}
