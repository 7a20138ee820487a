import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/**
 * The app.k8s.io Application CRD (kubernetes-sigs/application, v1beta1) that Kubeflow
 * Pipelines' cluster-scoped install ships as a third-party CRD. It describes an installed
 * application: what it is, where to read about it and which objects belong to it.
 */
export const APPLICATION_GROUP = 'app.k8s.io';

/** A reference to one key or address of another object, from which an info value is read. */
const ref = (extra: Record<string, ReturnType<typeof s.string> | ReturnType<typeof s.int32>>, name: string) => s.object({
  apiVersion: s.string().describe('API version of the object referred to.'),
  kind: s.string().describe('Kind of the object referred to.'),
  name: s.string().describe('Name of the object referred to.'),
  namespace: s.string().describe('Namespace of the object referred to.'),
  uid: s.string().describe('UID of the object referred to.'),
  resourceVersion: s.string().describe('The resourceVersion of the object referred to, when a specific one is meant.'),
  fieldPath: s.string().describe('A field inside the object referred to, when the reference is to part of it.'),
  ...extra,
}).named(name);

const contact = s.object({
  name: s.string().describe('Person or organization.'),
  url: s.string().describe('Their web address.'),
  email: s.string().describe('Their e-mail address.'),
}).named('ContactData');

const spec = s.object({
  descriptor: s.object({
    type: s.string().describe('What kind of application this is (e.g. Kubeflow Pipelines).'),
    version: s.string().describe('Version of the application.'),
    description: s.string().describe('A short description.'),
    icons: s.array(s.object({
      src: s.string().required().describe('URL of the icon, or a data: URL holding it.'),
      type: s.string().describe('Media type of the icon, e.g. image/png.'),
      size: s.string().describe('Size in pixels, e.g. 32x32.'),
    }).named('ImageSpec')).describe('Icons to show for the application.'),
    maintainers: s.array(contact).describe('Who maintains the application\'s code, images and packaging.'),
    owners: s.array(contact).describe('Who to contact about this installation.'),
    keywords: s.array(s.string()).describe('Words to find the application by.'),
    links: s.array(s.object({
      description: s.string().describe('What the link leads to.'),
      url: s.string().describe('The address.'),
    }).named('Link')).describe('Documentation, dashboards and other pages about the application.'),
    notes: s.string().describe('Getting-started notes for users (CommonMark).'),
  }).named('Descriptor').describe('What the application is, for people.'),
  selector: plainCore('V1LabelSelector').describe('Labels of the objects that make up the application (with componentKinds).'),
  componentKinds: s.array(s.object({
    group: s.string().required(),
    kind: s.string().required(),
  }).named('GroupKind')).describe('Kinds of the objects that make up the application; the selector picks them.'),
  addOwnerRef: s.boolean().describe('Whether the application controller makes the Application an owner of the objects it selects.'),
  info: s.array(s.object({
    name: s.string().describe('Title of the item.'),
    type: s.string().describe('Kind of value.'),
    value: s.string().describe('The value, given literally.'),
    valueFrom: s.object({
      type: s.string().describe('Which of the references below is used.'),
      configMapKeyRef: ref({ key: s.string().describe('Key in the ConfigMap.') }, 'ConfigMapKeySelector').describe('A key of a ConfigMap.'),
      secretKeyRef: ref({ key: s.string().describe('Key in the Secret.') }, 'SecretKeySelector').describe('A key of a Secret.'),
      serviceRef: ref({
        port: s.int32().describe('Port of the Service.'),
        path: s.string().describe('HTTP path on the Service.'),
        protocol: s.string().describe('Protocol of the Service port.'),
      }, 'ServiceSelector').describe('The address of a Service.'),
      ingressRef: ref({
        host: s.string().describe('Host of the Ingress.'),
        path: s.string().describe('HTTP path on the Ingress.'),
        protocol: s.string().describe('Protocol of the Ingress.'),
      }, 'IngressSelector').describe('The address of an Ingress.'),
    }).named('InfoItemSource').describe('Where the value is read from, when it is not literal.'),
  }).named('InfoItem')).describe('Key-value facts for users about reaching the application.'),
  assemblyPhase: s.string().describe('How far the application\'s assembly has come; empty means done (Succeeded).'),
}).named('ApplicationSpec');

const status = s.object({
  observedGeneration: s.int64().describe('The generation the controller last acted on.'),
  conditions: s.array(s.object({
    type: s.string().required().describe('Kind of condition.'),
    status: s.string().required().describe('True, False or Unknown.'),
    reason: s.string().describe('Why it last changed, in one word.'),
    message: s.string().describe('Why it last changed, for people.'),
    lastUpdateTime: s.dateTime().describe('When it was last checked.'),
    lastTransitionTime: s.dateTime().describe('When its status last changed.'),
  }).named('ApplicationCondition')).describe('The application\'s state as conditions.'),
  components: s.array(s.object({
    group: s.string().describe('API group of the object.'),
    kind: s.string().describe('Kind of the object.'),
    name: s.string().describe('Name of the object.'),
    link: s.string().describe('Self link of the object.'),
    status: s.string().describe('InProgress, Ready or Unknown.'),
  }).named('ObjectStatus')).describe('Each selected object and whether it is ready.'),
  componentsReady: s.string().describe('Ready components out of all, as ready/total.'),
}).named('ApplicationStatus');

export const applicationCrd: CrdDefinition = {
  group: APPLICATION_GROUP,
  kind: 'Application',
  plural: 'applications',
  shortNames: ['app'],
  categories: ['all'],
  scope: CrdScope.NAMESPACED,
  annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes-sigs/application/pull/2', 'controller-gen.kubebuilder.io/version': 'v0.4.0' },
  versions: [{
    name: 'v1beta1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.descriptor.type', description: 'Kind of application' },
      { name: 'Version', type: 'string', jsonPath: '.spec.descriptor.version', description: 'Version of the application' },
      { name: 'Owner', type: 'boolean', jsonPath: '.spec.addOwnerRef', description: 'Whether the Application owns the objects it selects' },
      { name: 'Ready', type: 'string', jsonPath: '.status.componentsReady', description: 'Ready components out of all' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    schema: s.object({ spec, status }),
  }],
};
