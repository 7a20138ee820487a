import { readFileSync } from 'fs';
import { join } from 'path';
import INDEX from '../../imports/ecosystem/index.json';

/**
 * The kinds of the ecosystem our output emits and builds on (Argo CD and its OpenShift GitOps
 * operator, Flux, cert-manager, Istio, the Gateway API, the Prometheus Operator, OpenShift's
 * Route): their CustomResourceDefinitions as each project publishes them at one release
 * (imports/ecosystem/, written by scripts/gen-ecosystem-crds.ts). `mlplatform validate`
 * checks a custom resource of these groups against them when the input has no CRD of its own
 * for it. A group's file is read only when an object of that group is looked up.
 */

/** Where a group's CRDs come from. */
export interface EcosystemSource {
  readonly project: string;
  /** owner/name on GitHub. */
  readonly repository: string;
  /** The release tag (or branch) the CRDs were taken at. */
  readonly ref: string;
  readonly commit: string;
}

/** An ecosystem CRD with the release it was taken from. */
export interface EcosystemCrd {
  /** The CustomResourceDefinition's JSON (descriptions left out). */
  readonly crd: { readonly metadata: { readonly name: string }; readonly spec: { readonly group: string; readonly names: { readonly kind: string } } };
  readonly source: EcosystemSource;
}

interface GroupFile {
  readonly group: string;
  readonly sources: readonly EcosystemSource[];
  /** Each CRD with the index of its source in `sources`. */
  readonly crds: ReadonlyArray<{ readonly source: number; readonly crd: EcosystemCrd['crd'] }>;
}

const KINDS: Readonly<Record<string, readonly string[]>> = INDEX;
const loaded = new Map<string, GroupFile>();

/** The API groups and their kinds that are known without a CRD in the input. */
export function ecosystemKinds(): Readonly<Record<string, readonly string[]>> {
  return KINDS;
}

/** The ecosystem CRD of `kind` in `group`, or undefined when the kind is not one of them. */
export function ecosystemCrd(group: string, kind: string): EcosystemCrd | undefined {
  if (!Object.prototype.hasOwnProperty.call(KINDS, group) || !KINDS[group].includes(kind)) return undefined;
  let file = loaded.get(group);
  if (!file) {
    file = JSON.parse(readFileSync(join(__dirname, '..', '..', 'imports', 'ecosystem', `${group}.json`), 'utf8')) as GroupFile;
    loaded.set(group, file);
  }
  const entry = file.crds.find((c) => c.crd.spec.names.kind === kind);
  return entry && { crd: entry.crd, source: file.sources[entry.source] };
}
