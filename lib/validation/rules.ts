/**
 * The rule ids of the validators (built-in objects, custom resources, CRDs, and the
 * `mlplatform validate` command), with what each covers. Every issue a validator returns
 * carries one of these ids; an issue without one is K8S-SCHEMA.
 */
export const RULES = {
  'K8S-PARSE': 'a document is not a Kubernetes object (no apiVersion, kind or metadata object)',
  'K8S-SCHEMA': 'a field has the wrong type, a required field is missing, or a value breaks a format, pattern, length or item count of the schema',
  'K8S-UNKNOWN-FIELD': 'a field the schema does not have (strict field validation; pruning, for custom resources)',
  'K8S-ENUM': 'a value outside the allowed set (Service type, protocol, restartPolicy, imagePullPolicy, dnsPolicy, webhook policies, ...)',
  'K8S-RANGE': 'a number outside its range (ports 1-65535, replicas and user ids >= 0, webhook timeoutSeconds 1-30, ...)',
  'K8S-NAME': 'metadata name, namespace, label and annotation syntax and size; names of containers, ports and volumes',
  'K8S-SELECTOR': 'a workload selector that is missing, empty or does not match its pod template labels; a malformed selector requirement',
  'K8S-UNIQUE': 'duplicate names or keys: containers, ports, volumes, env-free list-map keys, sets, webhooks, Service ports, CRD versions',
  'K8S-REFERENCE': 'a reference inside an object to something it does not declare (a volume mount to an undeclared volume, a port name)',
  'K8S-RESOURCES': 'resource requests above limits; LimitRange min above max',
  'K8S-PROBE': 'a probe or lifecycle handler without exactly one handler, or with thresholds the API server rejects',
  'K8S-POD': 'pod-level rules: restart policies per workload kind, container restartPolicy (sidecars only), image required, security context',
  'K8S-VOLUME': 'volume rules: exactly one source per volume and per projected source, required names, item paths inside the volume, downward API fields',
  'K8S-SCHEDULING': 'nodeSelector, tolerations, node and pod affinity, topology spread constraints',
  'K8S-STORAGE': 'PersistentVolumeClaim (access modes, storage request, data sources) and StorageClass (provisioner) rules',
  'K8S-ADMISSION': 'ValidatingAdmissionPolicy (CEL expressions compile, validations, match constraints) and its binding (policy, actions, paramRef)',
  'K8S-SPEC': 'per-kind rules of APIService, IngressClass, RuntimeClass, EndpointSlice and PriorityClass names',
  'K8S-ENV': 'environment variable names and value sources',
  'K8S-SECRET': 'Secret type requirements (tls, dockerconfigjson, basic-auth, ssh-auth, service-account-token)',
  'K8S-DATA-KEY': 'ConfigMap and Secret data keys: syntax, length, duplicates between data and binaryData',
  'K8S-SERVICE': 'Service rules: port names with several ports, clusterIP and headless, ExternalName, fields allowed only for some types, externalIPs, session affinity, IP families',
  'K8S-INGRESS': 'Ingress paths and pathType, hosts, backends',
  'K8S-NETWORK-POLICY': 'NetworkPolicy ipBlock CIDRs and their except ranges, ports',
  'K8S-WEBHOOK': 'admission webhook names (fully qualified, unique in a configuration), admissionReviewVersions, clientConfig, rules, matchConditions',
  'K8S-RBAC': 'RBAC rules the API server enforces in code (verbs, API groups, nonResourceURLs in a Role, roleRef and subject kinds)',
  'K8S-WORKLOAD': 'workload-level rules (rolling update with maxSurge and maxUnavailable both 0, percentages above 100%, HPA replicas and metrics, CronJob schedule and time zone, Job failure and success policies)',
  'K8S-CRD': 'CustomResourceDefinition rules: structural schema, names, versions, one storage version, CEL rules the target Kubernetes compiles (scopes, escapes, libraries, cost)',
  'K8S-UNKNOWN-KIND': 'a built-in API group kind or version that Kubernetes v1.32 does not serve (or this validator does not know)',
  'K8S-NO-CRD': 'a custom resource whose CRD is neither in the input nor in --crds, nor one of the ecosystem kinds known without it (Argo CD, Flux, cert-manager, Istio, Gateway API, Prometheus Operator, OpenShift Route)',
  'K8S-VERSION': 'a custom resource at a version its CRD does not define or serve',
  'K8S-CEL': 'a CRD x-kubernetes-validations rule evaluates to false (or fails) for the object',
  'K8S-CEL-UNEVALUATED': 'warning: a CEL rule that could not be evaluated here (transition rule with optionalOldSelf on create, unsupported function)',
} as const;

export type RuleId = keyof typeof RULES;

/** Rules reported as warnings: the validator could not decide, it did not find a problem. */
export const WARNING_RULES: ReadonlySet<string> = new Set<RuleId>(['K8S-CEL-UNEVALUATED']);

/** The rule id of an issue (K8S-SCHEMA when the validator did not set one). */
export function ruleOf(issue: { rule?: string }): string {
  return issue.rule ?? 'K8S-SCHEMA';
}
