import { Construct } from 'constructs';
import { GatewayApiInferenceExtension, GatewayApiInferenceExtensionProps } from '../constructs/gateway-api-inference-extension';
import { KServe, KServeProps } from '../constructs/kserve';
import { CERT_MANAGER } from '../lib/component';
import { PlatformCustomization } from '../lib/customization';
import { Platform } from '../lib/platform';
import { checkPropKeys } from '../lib/prop-keys';

export interface ServingPlatformProps extends PlatformCustomization {
  /** @default serving */
  readonly name?: string;
  readonly kserve?: KServeProps;
  readonly inferenceExtension?: GatewayApiInferenceExtensionProps;
}

/**
 * Model serving: KServe with the Gateway API Inference Extension, on a cluster that
 * already runs cert-manager.
 */
export class ServingPlatform extends Platform {
  public readonly inferenceExtension: GatewayApiInferenceExtension;
  public readonly kserve: KServe;

  constructor(scope: Construct, id: string, props: ServingPlatformProps = {}) {
    const { name, kserve, inferenceExtension, ...customization } = props;
    super(scope, id, {
      ...customization,
      name: name ?? 'serving',
      prerequisites: [CERT_MANAGER],
    });
    // A misspelled prop fails ("did you mean") rather than being ignored where nothing type-checks it.
    checkPropKeys(this, new.target.name, props);
    this.inferenceExtension = new GatewayApiInferenceExtension(this, 'gateway-api-inference-extension', inferenceExtension);
    this.kserve = new KServe(this, 'kserve', kserve);
  }
}
