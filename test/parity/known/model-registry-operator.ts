import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's model-registry-operator install (see ../known-defects.ts). */
export const KNOWN_MODEL_REGISTRY_OPERATOR: readonly KnownDefect[] = [
  {
    install: 'model-registry-operator',
    defect: 'MRO-TEMPLATES',
    fact: { kind: F.CUSTOM_RESOURCE, object: 'Template/jobs-async-upload-s3-to-oci-template', status: 'missing' },
    note: 'upstream\'s OpenShift Template for the async S3-to-OCI upload job is not emitted',
  },
];
