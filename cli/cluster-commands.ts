/**
 * What `mlplatform help` and the dispatcher know of apply, diff and plan without loading them
 * (cli/cluster.ts, which loads the cluster client): their help and their options, so that a
 * usage error is reported before any of it is loaded.
 */
import type { OptionSpec } from './args';

export const CONNECTION_OPTIONS: Record<string, OptionSpec> = {
  'platform': {},
  'app': {},
  'dir': {},
  'kubeconfig': {},
  'context': {},
  'applyset-namespace': {},
};

export const APPLY_OPTIONS: Record<string, OptionSpec> = {
  ...CONNECTION_OPTIONS,
  'dry-run': { choices: ['server'] },
  'prune': { value: false },
  'prune-crds': { value: false },
  'timeout': {},
  'adopt': { multiple: true },
};

export const PLAN_OPTIONS: Record<string, OptionSpec> = {
  'from': {},
  'to': {},
  'format': { choices: ['text', 'json'] },
  'acknowledge': { multiple: true },
  'accept-danger': { value: false },
  'app': {},
  'platform': {},
};

export const DIFF_OPTIONS: Record<string, OptionSpec> = { ...CONNECTION_OPTIONS, 'show-foreign': { value: false }, 'timeout': {} };

export const CLUSTER_COMMANDS = {
  apply: {
    summary: 'apply a platform to a cluster, phase by phase, waiting between phases',
    usage: 'mlplatform apply (--platform NAME | --app FILE [--platform NAME] | --dir DIR) [--kubeconfig FILE] [--context NAME] [--dry-run=server] [--prune [--prune-crds]] [--timeout 300s] [--applyset-namespace NS] [--adopt all|KIND/NAME|KIND/NS/NAME]...',
    details: 'Before the first write, checks that the platform\'s prerequisites (cert-manager, OpenShift, the ODH operator...)\n' +
      'are served, that the server is at least every component\'s minimum Kubernetes version, that no object belongs to\n' +
      'another ApplySet or tool (unless --adopt names it), and that you may get, create, patch (and with --prune list\n' +
      'and delete) everything the run touches (SelfSubjectAccessReview); else it stops, changes nothing and lists why.\n' +
      'Then server-side apply (field manager mlplatform-NAME; fields another manager set are taken, and named),\n' +
      'phase by phase and component by component in output order, waiting between phases for CRDs Established, Deployments Available and\n' +
      'Certificates Ready, and for a ready endpoint behind each webhook Service before its webhook configuration.\n' +
      'Every object joins the platform\'s ApplySet (KEP-3659; parent Secret NS/mlplatform-NAME, default namespace\n' +
      'default). --prune deletes its members that left the output: webhooks first, then in reverse phase order,\n' +
      'never a CRD with custom resources unless --prune-crds. Exit 0 applied (or nothing to change), 1 failed.',
  },
  diff: {
    summary: 'what apply would change on a cluster',
    usage: 'mlplatform diff (--platform NAME | --app FILE [--platform NAME] | --dir DIR) [--show-foreign] [--timeout 60s] [--kubeconfig FILE] [--context NAME] [--applyset-namespace NS]',
    details: 'Shows drift only on fields we own (the fields the output sets): a key another manager added inside one of\n' +
      'our objects is no change to apply, and is listed with --show-foreign (path and manager).\n' +
      'Server-side dry-run apply of every object, compared with the live object, per component; fields that\n' +
      'controllers change at run time (injected caBundles, aggregated rules, rotated Secrets) are ignored. Names\n' +
      'drift made by other field managers, and the ApplySet members apply --prune would delete.\n' +
      'Exit 0 no changes, 1 changes, 2 errors (as kubectl diff).',
  },
  plan: {
    summary: 'a reviewable upgrade plan between two synthesized outputs (no cluster)',
    usage: 'mlplatform plan --from (DIR | REF[:PATH]) [--to DIR | --platform NAME | --app FILE [--platform NAME]] [--format text|json] [--acknowledge KEY]... [--accept-danger]',
    details: 'Compares the output before (a folder, or PATH at git revision REF; PATH defaults to --to) with the output\n' +
      'after (--to, default PATH of --from in the working tree; or the platform built now with --platform NAME or\n' +
      '--app FILE). Where PATH is not committed at REF (dist/ is usually ignored), REF is synthesized in a temporary\n' +
      'git worktree with the app its cdk8s.yaml names (sharing node_modules), and removed after. It reports:\n' +
      'CRD versions added, served versions removed and\n' +
      'storage changes, schema fields removed, newly required fields, changed CEL rules, webhooks added, removed or\n' +
      'changed, RBAC grants per ServiceAccount, images with their version jump, objects pruned and namespaces\n' +
      'removed, dangerous grants (wildcards, cluster-wide Secrets read, escalate/bind/impersonate, writes to webhooks\n' +
      'or RBAC), a validating webhook\'s failurePolicy Fail -> Ignore, Pod Security lowered, NetworkPolicies removed.\n' +
      'Each finding has a severity (danger, warning, info) and a key. Exit 1 while a dangerous finding is\n' +
      'not acknowledged (--acknowledge KEY, or --accept-danger for all), 0 otherwise, 2 when an output cannot be read.',
  },
} as const;
