import { isSharedJson, SharedMemo } from '../subtree-sharing';
import { joinPath, show, ValidationIssue } from './issues';
import { checkDnsLabel, checkDnsSubdomain } from './names';

/**
 * What the API server checks in a CustomResourceDefinition beyond its OpenAPI type
 * (apiextensions validation; facts of Kubernetes v1.32, code and messages ours): names,
 * versions, one storage version, and the structural-schema rules of each version's schema.
 */

type Props = Record<string, any>;
type Push = (rule: string, path: string, message: string) => void;

const isObj = (v: unknown): v is Props => v !== null && typeof v === 'object' && !Array.isArray(v);
const VERSION_NAME = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const KIND = /^[A-Za-z][A-Za-z0-9]*$/;
/** Keywords a CRD schema may not use. */
const FORBIDDEN = new Set(['$ref', '$schema', 'id', 'definitions', 'dependencies', 'patternProperties', 'additionalItems']);
const CHILD_KEYS = ['items', 'additionalProperties', 'not'];
const JUNCTORS = ['allOf', 'anyOf', 'oneOf'];
/** Inside allOf/anyOf/oneOf/not: value checks only. */
const NOT_IN_JUNCTORS = ['type', 'default', 'additionalProperties', 'nullable', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'];

export function crdIssues(crd: Props): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const push: Push = (rule, path, message) => out.push({ rule, path, message });
  const spec = crd.spec;
  if (!isObj(spec)) return out;
  const names = isObj(spec.names) ? spec.names : {};
  if (typeof spec.group === 'string') {
    if (checkDnsSubdomain(spec.group) || !spec.group.includes('.')) push('K8S-CRD', 'spec.group', `${show(spec.group)} is not a valid group: expected a DNS subdomain with at least one dot, such as example.com`);
  }
  if (typeof names.plural === 'string' && typeof spec.group === 'string' && crd.metadata?.name !== `${names.plural}.${spec.group}`) {
    push('K8S-CRD', 'metadata.name', `must be ${names.plural}.${spec.group} (spec.names.plural, '.', spec.group), got ${show(crd.metadata?.name)}`);
  }
  for (const field of ['plural', 'singular']) {
    const v = names[field];
    if (typeof v === 'string' && v !== '' && (checkDnsLabel(v) || v !== v.toLowerCase())) push('K8S-CRD', `spec.names.${field}`, `${show(v)} is not valid: expected a lowercase DNS label`);
  }
  for (const field of ['kind', 'listKind']) {
    const v = names[field];
    if (typeof v === 'string' && !KIND.test(v)) push('K8S-CRD', `spec.names.${field}`, `${show(v)} is not a valid kind: expected letters and digits, starting with a letter`);
  }
  if (names.kind !== undefined && names.kind === names.listKind) push('K8S-CRD', 'spec.names.listKind', 'listKind must differ from kind');
  (Array.isArray(names.shortNames) ? names.shortNames : []).forEach((s: unknown, i: number) => {
    if (typeof s === 'string' && checkDnsLabel(s)) push('K8S-CRD', `spec.names.shortNames[${i}]`, `${show(s)} is not a DNS label`);
  });

  const versions: Props[] = Array.isArray(spec.versions) ? spec.versions : [];
  if (!versions.length) push('K8S-CRD', 'spec.versions', 'a CRD needs at least one version');
  const seen = new Set<string>();
  let storage = 0;
  versions.forEach((v, i) => {
    if (!isObj(v)) return;
    const at = `spec.versions[${i}]`;
    if (typeof v.name === 'string') {
      if (!VERSION_NAME.test(v.name) || v.name.length > 63) push('K8S-CRD', `${at}.name`, `${show(v.name)} is not a valid version name: expected a DNS-1035 label such as v1 or v1beta1`);
      if (seen.has(v.name)) push('K8S-UNIQUE', `${at}.name`, `duplicate version ${show(v.name)}`);
      seen.add(v.name);
    }
    if (v.storage === true) storage++;
    const schema = v.schema?.openAPIV3Schema;
    if (!isObj(schema)) {
      push('K8S-CRD', `${at}.schema.openAPIV3Schema`, 'every version of an apiextensions.k8s.io/v1 CRD needs a schema');
    } else {
      structural(schema, `${at}.schema.openAPIV3Schema`, push);
    }
    const scale = v.subresources?.scale;
    if (isObj(scale)) {
      if (typeof scale.specReplicasPath === 'string' && !scale.specReplicasPath.startsWith('.spec.')) push('K8S-CRD', `${at}.subresources.scale.specReplicasPath`, 'must be a JSON path under .spec');
      if (typeof scale.statusReplicasPath === 'string' && !scale.statusReplicasPath.startsWith('.status.')) push('K8S-CRD', `${at}.subresources.scale.statusReplicasPath`, 'must be a JSON path under .status');
    }
  });
  if (versions.length && storage !== 1) push('K8S-CRD', 'spec.versions', `exactly one version must be the storage version (storage: true); ${storage} are`);
  if (versions.length && !versions.some((v) => v?.served === true)) push('K8S-CRD', 'spec.versions', 'at least one version must be served');
  const conversion = spec.conversion;
  if (isObj(conversion) && conversion.strategy === 'Webhook') {
    if (!isObj(conversion.webhook?.clientConfig)) push('K8S-CRD', 'spec.conversion.webhook.clientConfig', 'a Webhook conversion needs webhook.clientConfig');
    if (!Array.isArray(conversion.webhook?.conversionReviewVersions) || !conversion.webhook.conversionReviewVersions.some((x: unknown) => x === 'v1' || x === 'v1beta1')) {
      push('K8S-CRD', 'spec.conversion.webhook.conversionReviewVersions', 'must include v1 (or v1beta1)');
    }
  } else if (isObj(conversion) && conversion.webhook !== undefined) {
    push('K8S-CRD', 'spec.conversion.webhook', 'may only be set when strategy is Webhook');
  }
  return out;
}

/** The structural-schema rules, over every node of a version's schema. */
function structural(root: Props, base: string, push: Push): void {
  if (root.type !== 'object') push('K8S-CRD', joinPath(base, 'type'), 'the root of a schema must be of type object');
  const meta = root.properties?.metadata;
  if (isObj(meta)) {
    const extra = Object.keys(meta).filter((k) => !['type', 'properties', 'description'].includes(k));
    const props = Object.keys(meta.properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
    if (meta.type !== undefined && meta.type !== 'object') push('K8S-CRD', joinPath(joinPath(base, 'properties'), 'metadata'), 'metadata must be of type object');
    if (props.length || extra.length) {
      push('K8S-CRD', joinPath(joinPath(base, 'properties'), 'metadata'), `at the root, metadata may only restrict name and generateName (found ${[...props, ...extra].join(', ')})`);
    }
  }
  let pushed = 0;
  walk(root, base, (rule, path, message) => {
    pushed++;
    push(rule, path, message);
  }, false, true, false, [], () => pushed);
}

/** Shared subtrees (lib/subtree-sharing.ts) in which walk found nothing, by the junctor and ios it entered them with. */
const cleanSubtrees = new SharedMemo<true>();

/**
 * Walks every node. Paths are built only for a problem (schemas of CRDs embedding pod
 * templates have tens of thousands of nodes): `segs` is the path below `base`.
 * `junctor`: inside allOf/anyOf/oneOf/not; `ios`: of an x-kubernetes-int-or-string node
 * (whose anyOf may name integer and string).
 */
function walk(s: Props, base: string, push: Push, junctor: boolean, root: boolean, ios: boolean, segs: Array<string | number>, pushed: () => number): void {
  if (!isObj(s)) return;
  // What walk finds in a subtree depends on its content, junctor and ios (the path only names
  // it): a shared subtree found clean once is clean wherever it appears again.
  const shared = !root && isSharedJson(s);
  const variant = (junctor ? 1 : 0) + (ios ? 2 : 0);
  if (shared && cleanSubtrees.get(s, variant)) return;
  const before = shared ? pushed() : 0;
  const at = (...more: Array<string | number>): string => [...segs, ...more].reduce<string>((p, k) => joinPath(p, k), base);
  for (const k in s) if (FORBIDDEN.has(k)) push('K8S-CRD', at(k), `${k} is not allowed in a CRD schema`);
  if (s.uniqueItems === true) push('K8S-CRD', at('uniqueItems'), 'uniqueItems: true is not allowed; use x-kubernetes-list-type: set');
  if (s['x-kubernetes-preserve-unknown-fields'] === false) push('K8S-CRD', at('x-kubernetes-preserve-unknown-fields'), 'must be true or left out');
  if (junctor) {
    for (const k of NOT_IN_JUNCTORS) {
      if (k === 'type' && ios && (s.type === 'integer' || s.type === 'string')) continue;
      if (s[k] !== undefined) push('K8S-CRD', at(k), `${k} is not allowed inside allOf, anyOf, oneOf or not (structural schema)`);
    }
  } else {
    const intOrString = s['x-kubernetes-int-or-string'] === true;
    const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
    if (intOrString && s.type !== undefined) push('K8S-CRD', at('type'), 'x-kubernetes-int-or-string needs type to be left out');
    if (!root && s.type === undefined && !intOrString && !preserve) push('K8S-CRD', at('type'), 'every schema node needs a type (unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields)');
    if (s.properties !== undefined && s.additionalProperties !== undefined && s.additionalProperties !== true) {
      push('K8S-CRD', at('additionalProperties'), 'properties and additionalProperties cannot both be set');
    }
    if (s.type === 'array' && s.items === undefined) push('K8S-CRD', at('items'), 'an array needs items');
    if (Array.isArray(s.items)) push('K8S-CRD', at('items'), 'items must be one schema, not a list');
    if (s['x-kubernetes-embedded-resource'] === true && (s.type !== 'object' || (s.properties === undefined && !preserve))) {
      push('K8S-CRD', at(), 'x-kubernetes-embedded-resource needs type object and properties or x-kubernetes-preserve-unknown-fields');
    }
    const listType = s['x-kubernetes-list-type'];
    if (listType !== undefined) listTypeRules(s, listType, at, push);
    else if (s['x-kubernetes-list-map-keys'] !== undefined) push('K8S-CRD', at('x-kubernetes-list-map-keys'), 'only a list of type map has keys');
  }
  const props = s.properties;
  if (isObj(props)) {
    for (const k in props) {
      segs.push('properties', k);
      walk(props[k], base, push, junctor, false, false, segs, pushed);
      segs.length -= 2;
    }
  }
  for (const k of CHILD_KEYS) {
    if (!isObj(s[k])) continue;
    segs.push(k);
    walk(s[k], base, push, junctor || k === 'not', false, k === 'not' && (ios || s['x-kubernetes-int-or-string'] === true), segs, pushed);
    segs.length -= 1;
  }
  for (const j of JUNCTORS) {
    const list = s[j];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      segs.push(j, i);
      walk(list[i], base, push, true, false, ios || s['x-kubernetes-int-or-string'] === true, segs, pushed);
      segs.length -= 2;
    }
  }
  if (shared && pushed() === before) cleanSubtrees.set(s, variant, true);
}

function listTypeRules(s: Props, listType: unknown, at: (...more: Array<string | number>) => string, push: Push): void {
  if (s.type !== 'array') push('K8S-CRD', at('x-kubernetes-list-type'), 'only arrays have a list type');
  if (listType === 'map') {
    const keys = s['x-kubernetes-list-map-keys'];
    const item = s.items ?? {};
    if (!Array.isArray(keys) || !keys.length) {push('K8S-CRD', at('x-kubernetes-list-map-keys'), 'a map list needs x-kubernetes-list-map-keys');} else if (item.type !== 'object') {push('K8S-CRD', at('items'), 'the items of a map list must be objects');} else {
      for (const k of keys) {
        const prop = item.properties?.[k];
        if (!prop) push('K8S-CRD', at('x-kubernetes-list-map-keys'), `key ${show(k)} is not a property of the items`);
        else if (!(item.required ?? []).includes(k) && prop.default === undefined) push('K8S-CRD', at('x-kubernetes-list-map-keys'), `key ${show(k)} must be required or have a default`);
      }
    }
  } else if (s['x-kubernetes-list-map-keys'] !== undefined) {
    push('K8S-CRD', at('x-kubernetes-list-map-keys'), 'only a list of type map has keys');
  }
  if (listType === 'set' && isObj(s.items) && s.items.type === 'object' && s.items['x-kubernetes-map-type'] !== 'atomic') {
    push('K8S-CRD', at('items'), 'the items of a set must be scalars or atomic');
  }
}
