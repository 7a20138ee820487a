import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's appwrapper install (see ../known-defects.ts). */
export const KNOWN_APPWRAPPER: readonly KnownDefect[] = [
  { install: 'appwrapper', defect: 'UNTRIAGED', fact: { kind: F.ENV, object: 'Deployment/appwrapper-controller-manager container manager', status: 'extra' }, items: ['NAMESPACE'], note: 'env we add, upstream has not' },
];
