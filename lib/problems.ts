import { IConstruct } from 'constructs';

// Problems found while constructs are built (a prop with a wrong value). In a PlatformApp
// (an app's entry point) they are recorded on the construct, not thrown: construction goes on
// with a safe stand-in value, so that every such problem of the app is found, and
// buildPlatform (PlatformApp's synth, runApp, mlplatform) reports them all, each with its
// construct path, as it reports the checks' findings, instead of a stack trace at the first.
// Under any other root (a plain App, as in unit tests) the problem is thrown at once.

const COLLECTS = Symbol.for('cdk8s-mlplatform.collectsProblems');
type Collecting = { [COLLECTS]?: boolean };

/** Makes a root construct (PlatformApp) collect construction problems instead of throwing them. */
export function collectProblemsUnder(root: IConstruct): void {
  (root as Collecting)[COLLECTS] = true;
}

/** Whether problems found while building this construct are collected (its root is a PlatformApp). */
export function collectsProblems(scope: IConstruct): boolean {
  return (scope.node.root as Collecting)[COLLECTS] === true;
}

const RECORDED = new WeakMap<IConstruct, string[]>();

/**
 * Reports a problem of a construct's props, found while it is built. The message names the
 * prop, the value and the fix; the construct path is put in front unless it starts with it.
 * Collected (collectsProblems), the problem fails the platform's build (a validation of the
 * construct) and the caller goes on with a safe value; otherwise it is thrown.
 */
export function reportProblem(scope: IConstruct, message: string): void {
  const text = message.startsWith(`${scope.node.path}:`) || message.startsWith(`${scope.node.path}/`) ? message : `${scope.node.path}: ${message}`;
  if (!collectsProblems(scope)) throw new Error(text);
  let list = RECORDED.get(scope);
  if (!list) {
    const mine: string[] = [];
    list = mine;
    RECORDED.set(scope, mine);
    scope.node.addValidation({ validate: () => [...mine] });
  }
  list.push(text);
}

/** Every problem recorded on a construct and the constructs below it, in construction order of the tree. */
export function recordedProblems(root: IConstruct): string[] {
  return root.node.findAll().flatMap((c) => RECORDED.get(c) ?? []);
}
