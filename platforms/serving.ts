import { Construct } from 'constructs';
import { GatewayApiInferenceExtension, GatewayApiInferenceExtensionProps } from '../constructs/gateway-api-inference-extension';
import { KServe, KServeProps } from '../constructs/kserve';
import { CertificateProvider } from '../lib/certificates';
import { CERT_MANAGER } from '../lib/component';
import { ImageSettings } from '../lib/images';
import { Platform } from '../lib/platform';

export interface ServingPlatformProps {
  /** @default serving */
  readonly name?: string;
  readonly kserve?: KServeProps;
  readonly inferenceExtension?: GatewayApiInferenceExtensionProps;
  /** @default cert-manager (declared present on the cluster) */
  readonly certificates?: CertificateProvider;
  readonly images?: ImageSettings;
}

/**
 * Model serving: KServe with the Gateway API Inference Extension, on a cluster that
 * already runs cert-manager.
 */
export class ServingPlatform extends Platform {
  public readonly inferenceExtension: GatewayApiInferenceExtension;
  public readonly kserve: KServe;

  constructor(scope: Construct, id: string, props: ServingPlatformProps = {}) {
    super(scope, id, {
      name: props.name ?? 'serving',
      certificates: props.certificates,
      images: props.images,
      prerequisites: [CERT_MANAGER],
    });
    this.inferenceExtension = new GatewayApiInferenceExtension(this, 'gateway-api-inference-extension', props.inferenceExtension);
    this.kserve = new KServe(this, 'kserve', props.kserve);
  }
}
