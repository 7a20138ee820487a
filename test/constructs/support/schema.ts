import { CrdDefinition, rootSchema } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';

/** The rendered root schema of a CRD's first version. */
export function schemaOf(def: CrdDefinition, version = 0): JSONSchemaProps {
  return rootSchema(def.versions[version].schema).toJson();
}

/** The node at a dotted path; `[]` steps into array items, `{}` into map values. */
export function at(schema: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = schema;
  for (const part of path.split('.')) {
    node = part === '[]' ? node.items : part === '{}' ? node.additionalProperties : node.properties?.[part];
    if (!node) throw new Error(`no ${path}`);
  }
  return node;
}

/** Every CEL rule under a node (the node included), with the path where it sits. */
export function celRules(schema: JSONSchemaProps, path = ''): Array<{ path: string; rule: string; message?: string }> {
  const out: Array<{ path: string; rule: string; message?: string }> = (schema['x-kubernetes-validations'] ?? []).map((r) => ({ path, rule: r.rule, message: r.message }));
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.push(...celRules(v, path ? `${path}.${k}` : k));
  if (schema.items && !Array.isArray(schema.items)) out.push(...celRules(schema.items, `${path}.[]`));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') out.push(...celRules(schema.additionalProperties, `${path}.{}`));
  return out;
}
