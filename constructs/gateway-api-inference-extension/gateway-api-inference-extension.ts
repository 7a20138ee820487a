import { ApiObject } from 'cdk8s';
import { CRDS } from './crds';
import { EndpointPicker, EndpointPickerImplementation, EndpointPickerPluginConfig } from './endpoint-picker';
import { CRDS_BY_VERSION, EPP_IMAGES, GatewayApiInferenceExtensionVersion } from './versions';
import { InferencePool } from '../../imports/inference.networking';
import { Component, ComponentProps } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';

export interface GatewayApiInferenceExtensionProps extends ComponentProps {
  /**
   * The release line: it decides which CRDs are installed (see CRDS_BY_VERSION).
   * @default GatewayApiInferenceExtensionVersion.V1_4
   */
  readonly version?: GatewayApiInferenceExtensionVersion;
}

export interface InferencePoolProps {
  readonly namespace: string;
  readonly name: string;
  /** Labels of the model server pods. */
  readonly selector: Record<string, string>;
  /** Ports the model servers listen on (1 to 8). */
  readonly targetPorts: number[];
  /** @default FailClose */
  readonly failureMode?: 'FailOpen' | 'FailClose';
  /** @default 1 */
  readonly eppReplicas?: number;
  /**
   * The endpoint picker that serves the pool: the extension's reference EPP or another
   * implementation of the role, e.g. llm-d's scheduler (`LlmDRouter.scheduler()`).
   * @default this.referencePicker()
   */
  readonly picker?: EndpointPickerImplementation;
}

export interface ReferencePickerOptions {
  /** Plugin configuration (--config-file). @default - the EPP's built-in default profile */
  readonly pluginConfig?: EndpointPickerPluginConfig;
  /** Extra flags, e.g. { v: '3' }. */
  readonly flags?: Record<string, string>;
}

/**
 * The Gateway API Inference Extension: the InferencePool family of CRDs. It runs no
 * controller of its own (gateways implement the API); each pool gets an endpoint picker
 * (`addInferencePool`).
 */
export class GatewayApiInferenceExtension extends Component {
  /** The upstream release this construct models. */
  public override get release(): string | undefined {
    return EPP_IMAGES[this.version].tag;
  }

  public readonly version: GatewayApiInferenceExtensionVersion;
  public readonly images: Readonly<Record<string, ImageSpec>>;

  constructor(scope: Platform, id: string, props: GatewayApiInferenceExtensionProps = {}) {
    super(scope, id, props.namespace ?? 'inference-system', props);
    const version = props.version ?? GatewayApiInferenceExtensionVersion.V1_4;
    const names = CRDS_BY_VERSION[version];
    if (!names) {
      throw new Error(`${this.node.path}: version '${version}' is not supported; use one of ${Object.values(GatewayApiInferenceExtensionVersion).join(', ')}`);
    }
    this.version = version;
    this.images = { epp: EPP_IMAGES[version] };
    for (const def of CRDS) {
      if (!names.includes(`${def.plural}.${def.group}`)) continue;
      this.addCrd({ ...def, annotations: { ...(def.annotations ?? {}), 'inference.networking.k8s.io/bundle-version': version } });
    }
    this.node.addValidation({ validate: () => this.checkPickerReferences() });
  }

  /**
   * Every InferencePool of the platform (either group) must name an endpoint picker Service
   * the platform emits in its namespace: a pool whose picker is missing routes nothing.
   */
  private checkPickerReferences(): string[] {
    const all = this.platform.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
    const services = new Set(all.filter((o) => o.apiVersion === 'v1' && o.kind === 'Service').map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
    const out: string[] = [];
    for (const o of all) {
      if (o.kind !== 'InferencePool' || !/^inference\.networking\.(x-)?k8s\.io\//.test(o.apiVersion)) continue;
      const spec = o.toJson().spec ?? {};
      const ref = spec.endpointPickerRef ?? spec.extensionRef;
      if (!ref?.name || (ref.kind && ref.kind !== 'Service')) continue;
      const ns = o.metadata.namespace;
      if (!services.has(`${ns}/${ref.name}`)) {
        out.push(`${o.node.path}: InferencePool '${ns}/${o.metadata.name}' names endpoint picker Service '${ref.name}', which is not in the platform in namespace ${ns}; create the pool with addInferencePool (which adds its picker) or fix the name`);
      }
    }
    return out;
  }

  /** The extension's reference endpoint picker (EPP) of this release line. */
  public referencePicker(options: ReferencePickerOptions = {}): EndpointPickerImplementation {
    return {
      description: `Gateway API Inference Extension EPP ${this.version}`,
      image: this.image('epp'),
      pluginConfig: options.pluginConfig,
      flags: options.flags,
      // Up to v1.5 the EPP reads the experimental objectives and rewrites; v1.6 moved them to llm-d.
      objectiveGroups: this.version === GatewayApiInferenceExtensionVersion.V1_6 ? [] : ['inference.networking.x-k8s.io'],
      // The flag llm-d's charts pass to the EPP framework both build on (unconfirmed for the reference EPP's own chart).
      leaderElectionFlag: 'ha-enable-leader-election',
    };
  }

  /** An InferencePool (inference.networking.k8s.io/v1) with its endpoint picker. */
  public addInferencePool(id: string, props: InferencePoolProps): { pool: InferencePool; picker: EndpointPicker } {
    if (!Object.keys(props.selector).length) {
      throw new Error(`${this.node.path}/${id}: selector is empty, which would route to every pod in namespace ${props.namespace}; give the model server pods' labels (e.g. { app: '${props.name}' })`);
    }
    const picker = new EndpointPicker(this, `${id}Picker`, {
      namespace: props.namespace,
      poolName: props.name,
      implementation: props.picker ?? this.referencePicker(),
      replicas: props.eppReplicas,
    });
    const pool = new InferencePool(this, id, {
      metadata: { name: props.name, namespace: props.namespace },
      spec: {
        selector: { matchLabels: props.selector },
        targetPorts: props.targetPorts.map((number) => ({ number })),
        endpointPickerRef: picker.endpointPickerRef(props.failureMode),
      },
    });
    return { pool, picker };
  }
}
