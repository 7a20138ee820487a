/**
 * The subset of apiextensions.k8s.io/v1 JSONSchemaProps that structural CRD schemas use.
 */
export interface JSONSchemaProps {
  'type'?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  'format'?: string;
  'description'?: string;
  'enum'?: unknown[];
  'default'?: unknown;
  'pattern'?: string;
  'minLength'?: number;
  'maxLength'?: number;
  'minimum'?: number;
  'maximum'?: number;
  'exclusiveMinimum'?: boolean;
  'exclusiveMaximum'?: boolean;
  'multipleOf'?: number;
  'minItems'?: number;
  'maxItems'?: number;
  'uniqueItems'?: boolean;
  'minProperties'?: number;
  'maxProperties'?: number;
  'items'?: JSONSchemaProps;
  'properties'?: Record<string, JSONSchemaProps>;
  'required'?: string[];
  'additionalProperties'?: JSONSchemaProps | boolean;
  'nullable'?: boolean;
  'anyOf'?: JSONSchemaProps[];
  'oneOf'?: JSONSchemaProps[];
  'allOf'?: JSONSchemaProps[];
  'not'?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: ValidationRule[];
}

/** One CEL rule (x-kubernetes-validations entry). */
export interface ValidationRule {
  /** The CEL expression; `self` is the value of the node that carries the rule. */
  readonly rule: string;
  /** Message returned when the rule is false. */
  readonly message?: string;
  readonly messageExpression?: string;
  /** @default FieldValueInvalid (as the API server) */
  readonly reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  readonly fieldPath?: string;
  readonly optionalOldSelf?: boolean;
}
