import { CliIo, UsageError } from './io';
import { compareKubernetesVersions, DEFAULT_KUBERNETES_VERSION, normalizeKubernetesVersion, OLDEST_KUBERNETES_VERSION } from '../lib/kubernetes-version';
import type { ManifestFinding } from '../lib/validation/manifests';

export const VALIDATE_USAGE = `Usage: mlplatform validate PATH... [--crds DIR]... [--ignore-missing-crds] [--kubernetes-version X.Y] [--format text|json]

Validates every Kubernetes object in the .yaml, .yml and .json files under each PATH
(folders are walked; kustomization.yaml files and Helm charts, whose templates are not
manifests until rendered, are skipped) as a Kubernetes v1.32 API
server with strict field validation would: built-in kinds against the API schema and the
API server's own rules, custom resources against their CustomResourceDefinition (found in
the input or under --crds), CEL rules included. The kinds of Argo CD (and the OpenShift
GitOps operator's ArgoCD), Flux, cert-manager, Istio, the Gateway API, the Prometheus
Operator and OpenShift's Route are known without their CRDs, at the releases named in
imports/ecosystem/ (a CRD in the input or under --crds is used instead). --ignore-missing-crds
makes a custom resource without its CRD a warning instead of an error (for CRDs another
repository installs). --kubernetes-version X.Y (default ${DEFAULT_KUBERNETES_VERSION})
compiles the CEL rules of CustomResourceDefinitions as that version's API server does when
it creates them: what each scope can see, CEL string escapes, the libraries of that version,
and the per-rule and per-CRD cost budgets.

Exit codes: 0 no errors (warnings may be printed), 1 errors found, 2 usage error or
input that cannot be read or parsed.
`;

interface Args {
  readonly paths: string[];
  readonly crds: string[];
  readonly format: 'text' | 'json';
  readonly help: boolean;
  readonly ignoreMissingCrds: boolean;
  readonly kubernetesVersion: string;
}

function parseArgs(args: string[]): Args {
  const paths: string[] = [];
  const crds: string[] = [];
  let format: 'text' | 'json' = 'text';
  let help = false;
  let ignoreMissingCrds = false;
  let kubernetesVersion = DEFAULT_KUBERNETES_VERSION;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--crds') {crds.push(value());} else if (flag === '--kubernetes-version') {
      const v = value();
      try {
        kubernetesVersion = normalizeKubernetesVersion(v, '--kubernetes-version');
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      if (compareKubernetesVersions(kubernetesVersion, OLDEST_KUBERNETES_VERSION) < 0) throw new UsageError(`--kubernetes-version: ${v} is older than ${OLDEST_KUBERNETES_VERSION}, the oldest version modelled`);
    } else if (flag === '--format') {
      const v = value();
      if (v !== 'text' && v !== 'json') throw new UsageError(`--format must be text or json, not '${v}'`);
      format = v;
    } else if (flag === '--ignore-missing-crds' && inline === undefined) {ignoreMissingCrds = true;} else if (flag === '-h' || flag === '--help') {help = true;} else if (flag === '--') {paths.push(...args.slice(i + 1)), i = args.length;} else if (flag.startsWith('-') && flag !== '-') {throw new UsageError(`unknown option ${flag}`);} else {paths.push(a);}
  }
  if (!help && !paths.length) throw new UsageError('give at least one file or folder to validate');
  return { paths, crds, format, help, ignoreMissingCrds, kubernetesVersion };
}

/** `mlplatform validate PATH... [--crds DIR] [--format text|json]`. */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const opts = parseArgs(args);
  if (opts.help) {
    io.stdout.write(VALIDATE_USAGE);
    return 0;
  }
  // The validators are loaded once the arguments parsed: a usage error answers at once.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { describeObject, ManifestInputError, validateManifests } = require('../lib/validation/manifests') as typeof import('../lib/validation/manifests');
  let findings: ManifestFinding[];
  const skippedCharts: string[] = [];
  try {
    findings = validateManifests(opts.paths, { crds: opts.crds, cwd: io.cwd, skippedCharts, missingCrds: opts.ignoreMissingCrds ? 'warning' : 'error', kubernetesVersion: opts.kubernetesVersion, crossObjects: true });
  } catch (e) {
    if (e instanceof ManifestInputError) {
      io.stderr.write(`mlplatform validate: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  for (const c of skippedCharts) io.stderr.write(`mlplatform validate: skipped the Helm chart in ${c} (render it with helm template, then validate the output)\n`);
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  if (opts.format === 'json') {
    io.stdout.write(`${JSON.stringify(findings.map((f) => ({
      file: f.file, index: f.index, apiVersion: f.apiVersion, kind: f.kind, namespace: f.namespace, name: f.name, rule: f.rule, severity: f.severity, message: f.message,
    })), null, 2)}\n`);
  } else {
    for (const f of findings) io.stdout.write(`${describeObject(f)}: ${f.severity === 'warning' ? 'warning ' : ''}[${f.rule}] ${f.message}\n`);
    io.stdout.write(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`);
  }
  return errors ? 1 : 0;
}
