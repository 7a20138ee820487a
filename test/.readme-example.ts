import { App } from 'cdk8s';
import { CertificateProvider } from '../lib/certificates';
import { CERT_MANAGER } from '../lib/component';
import { Platform } from '../lib/platform';
import { buildPlatform } from '../lib/synth';
import { GatewayApiInferenceExtension } from '../constructs/gateway-api-inference-extension';
import { KServe } from '../constructs/kserve';

const app = new App();
const platform = new Platform(app, 'my-serving', {
  name: 'my-serving',
  prerequisites: [CERT_MANAGER],
  certificates: CertificateProvider.certManager({ clusterIssuer: 'internal-ca' }),
  images: { registryMirror: 'registry.internal.example.com/mirror' },
});
const gie = new GatewayApiInferenceExtension(platform, 'gateway-api-inference-extension');
new KServe(platform, 'kserve', {
  namespace: 'model-serving',
  replicas: 2,
  localModel: false,
  servingRuntimes: ['kserve-sklearnserver', 'kserve-huggingfaceserver'],
  config: { deploy: { defaultDeploymentMode: 'RawDeployment' } },
});
gie.addInferencePool('LlamaPool', { namespace: 'model-serving', name: 'llama', selector: { app: 'llama' }, targetPorts: [8000] });

// In a cdk8s app, use PlatformApp (lib/synth.ts) and call app.synth() to write dist/.
export const result = buildPlatform(platform);
