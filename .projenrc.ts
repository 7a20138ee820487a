import { javascript, typescript } from 'projen';

// Source lives in several top-level folders (design card): lib/ (framework),
// constructs/ (components), platforms/ (distributions), imports/ (generated).
// Tests run through jest, transpiled by SWC (@swc/jest). Synth (cdk8s.yaml) runs scripts/app.js, which transpiles
// into build/ (gitignored) only the sources that changed and runs build/main.js, so that
// TypeScript is not compiled at every synth. `tsc` only type-checks (noEmit), so projen's
// default compile output folder (lib/, which is our framework folder) is never written.
// ESM-only packages that jest must transpile (see jestOptions).
const ESM_ONLY = ['@kubernetes/client-node', 'openid-client', 'oauth4webapi', 'jose', 'rfc4648', 'jsonpath-plus'];
// SWC's options for jest (jestOptions.transform): what tsconfig.json asks of ts-jest (ES2022,
// CommonJS, class fields as defined properties), and the same for the ESM-only packages.
const SWC_TS = { jsc: { parser: { syntax: 'typescript' }, target: 'es2022', transform: { useDefineForClassFields: true } }, module: { type: 'commonjs' } };
const SWC_ESM = { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } };
const sourceDirs = ['lib', 'constructs', 'platforms', 'imports', 'cli', 'test', 'scripts'];

const project = new typescript.TypeScriptProject({
  name: 'cdk8s-mlplatform',
  description: 'Typed cdk8s constructs for the components of an open-source AI/ML platform on Kubernetes, composed into validated, correctly ordered GitOps output.',
  defaultReleaseBranch: 'main',
  projenrcTs: true,
  packageManager: javascript.NodePackageManager.NPM,
  minNodeVersion: '20.0.0',
  github: false,
  release: false,
  package: false,
  srcdir: '.',
  libdir: 'build',
  testdir: 'test',
  sampleCode: false,
  // The package: compiled JavaScript with declarations in pkg/ (tsconfig.package.json), the
  // mlplatform command a shim that runs it (bin/mlplatform.js; in a clone it builds first).
  entrypoint: 'pkg/index.js',
  entrypointTypes: 'pkg/index.d.ts',
  bin: { mlplatform: 'bin/mlplatform.js' },
  autoDetectBin: false,
  typescriptVersion: '5.9.3',
  deps: [
    'cdk8s@2.70.106',
    'cdk8s-plus-28@2.5.6',
    'constructs@10.8.1',
    'ajv@8.20.0',
    'yaml@2.9.1',
    '@bufbuild/cel@0.6.1',
    // Renders the report's dependency graph to SVG (Graphviz compiled to WebAssembly: no network, no binary).
    '@viz-js/viz@3.31.0',
    // RFC 6902 JSON patches, the customization escape hatch.
    'fast-json-patch@3.1.1',
    // The Kubernetes client: apply, diff and the real-API-server tests; its type metadata
    // also feeds scripts/gen-core-types.mjs. 1.4.0, not 2.x: 2.x pulls in undici 8, which
    // needs Node >= 22.19 and fails at load on Node 20 (the Node we support). The package
    // is ESM-only; Node 20.19+ loads it with require().
    '@kubernetes/client-node@1.4.0',
    // bcrypt hashes of the passwords \`mlplatform apply\` generates (Dex's static user): plain
    // JavaScript, no install script; loaded only when apply makes a hash.
    'bcryptjs@3.0.3',
  ],
  devDeps: [
    'cdk8s-cli@2.207.60',
    'ts-node@10.9.2',
    // Property-based tests (random component graphs).
    'fast-check@4.11.0',
    // X.509 certificates for the test cluster (test/support/cluster.ts plays cert-manager and
    // OpenShift's service CA): node:crypto makes keys but cannot issue certificates.
    'node-forge@1.4.3',
    '@types/node-forge@1.3.14',
    // jest's transformer (see jestOptions): SWC, a native transpiler, instead of ts-jest.
    '@swc/core@1.16.22',
    '@swc/jest@0.2.39',
  ],
  tsconfig: {
    include: sourceDirs.map((d) => `${d}/**/*.ts`).concat(['main.ts', 'index.ts']),
    // pkg/: the package's compiled declarations (scripts/prepack.mjs), rewritten by the package test while the checks run.
    exclude: ['node_modules', 'build', 'dist', 'pkg'],
    compilerOptions: {
      rootDir: '.',
      outDir: 'build',
      noEmit: true,
      declaration: false,
      resolveJsonModule: true,
      esModuleInterop: true,
      isolatedModules: true,
      lib: ['es2022'],
      target: 'ES2022',
      skipLibCheck: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noImplicitReturns: true,
      noFallthroughCasesInSwitch: true,
      experimentalDecorators: false,
    },
  },
  disableTsconfigDev: true,
  jest: true,
  jestOptions: {
    // Snapshots must fail when output changes; `npx projen test:update` updates them.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/build/', '/dist/'],
      coveragePathIgnorePatterns: ['/node_modules/', '/imports/', '/test/'],
      // The transformer only transpiles (see transform below); `tsc --noEmit` in the test
      // task type-checks. One worker per core the machine has (jest's default leaves one
      // idle, and a fixed count ignores larger machines); `--maxWorkers` still overrides.
      maxWorkers: '100%',
      // Each test file loads the whole library into a fresh module registry and a worker's heap
      // grows by a few MB per file; a worker whose heap is above this after a file is replaced by
      // a fresh one, which pays jest's start-up again and runs its first files unoptimized
      // again. At 512MB workers were replaced every ~10 files (10 restarts in a full run); on
      // test/constructs, test/lib/validation and test/lib/gitops (59 files), 512MB cost 81.9 and
      // 77.6 s of CPU, 2GB 74.3 and 72.8 s. 1GB keeps two workers' memory bounded on a shared
      // machine. "A worker process has failed to exit gracefully" (jest's 500 ms grace at the
      // end) showed at 512MB too when the machine was busy (load ~12 on 2 cores).
      workerIdleMemoryLimit: '1GB',
      additionalOptions: {
        // A worker that ran a real control plane can take seconds to end its last sockets
        // (the stopped API server's connections, the test kubelet's listeners) on a busy
        // machine. Killed at jest's default 500 ms, it is never waited for, and
        // `/usr/bin/time` (the bench, CI's CPU figure) then loses the CPU of the worker and
        // of every process it ran: motion-kubeflow alone read 33.5 s for 97.6 s sampled.
        workerGracefulExitTimeout: 15_000,
      },
      // Longest first also on a fresh clone, where jest has no durations of earlier runs yet.
      testSequencer: '<rootDir>/test/support/sequencer.js',
      collectCoverage: false,
      // TypeScript is transpiled by SWC (@swc/jest), file by file, types stripped: the same as
      // ts-jest did with isolatedModules (ES2022 class fields included); `tsc --noEmit` in the
      // test task type-checks. On a cold transform cache (a fresh clone, CI) ts-jest spent about
      // 13 s of CPU on our sources and 17 s on @kubernetes/client-node's; on 25 representative
      // files, cold: 65.9 s with ts-jest, 44.0 s with SWC; warm: 39.2 and 41.4 s (noise).
      // @kubernetes/client-node and the packages it imports are ESM-only. Plain Node 20.19+
      // loads them with require(); jest on Node 20 cannot, so SWC transpiles them to CommonJS
      // (once: jest caches the result).
      transform: {
        '^.+\\.[t]sx?$': new javascript.Transform('@swc/jest', SWC_TS),
        [`^.+/node_modules/(${ESM_ONLY.join('|')})/.+\\.m?js$`]: new javascript.Transform('@swc/jest', SWC_ESM),
      },
      transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
    },
  },
  eslint: true,
  eslintOptions: {
    dirs: ['lib', 'constructs', 'platforms', 'cli'],
    devdirs: ['test', 'scripts'],
    ignorePatterns: ['imports/**', 'build/**', 'dist/**', 'node_modules/**', '*.js', '*.mjs', '*.d.ts'],
    commandOptions: { fix: false },
  },
  // node_modules without a slash also ignores a node_modules symlink (git worktrees share one).
  gitignore: ['/dist/', '/build/', '/pkg/', '/artifacts/', '/.bench/', '/test/.readme-example.ts', '/node_modules'],
});

// The package's version (projen writes 0.0.0 unless told): what `mlplatform --version`, the
// tarball's name and the ApplySet's tooling label show. Bump it with each release.
project.package.addVersion('0.1.0');

// What the package ships: the compiled library and CLI with their declarations and the data
// they read at run time (imports/k8s/core-types.json), and the command's shim.
project.package.addField('files', ['bin/mlplatform.js', 'pkg/**/*.js', 'pkg/**/*.d.ts', 'pkg/**/*.json', 'README.md', 'LICENSE']);
new javascript.TypescriptConfig(project, {
  fileName: 'tsconfig.package.json',
  include: ['index.ts', 'cli/**/*.ts', 'lib/**/*.ts', 'constructs/**/*.ts', 'platforms/**/*.ts', 'imports/**/*.ts'],
  exclude: ['node_modules', 'build', 'dist', 'pkg', 'test'],
  compilerOptions: {
    rootDir: '.',
    outDir: 'pkg',
    declaration: true,
    noEmit: false,
    sourceMap: false,
    resolveJsonModule: true,
    esModuleInterop: true,
    isolatedModules: true,
    lib: ['es2022'],
    target: 'ES2022',
    module: 'CommonJS',
    moduleResolution: javascript.TypeScriptModuleResolution.NODE,
    skipLibCheck: true,
    strict: true,
    // What the package's code may assume at run time: Node, not the test runner.
    types: ['node'],
    noEmitOnError: true,
    experimentalDecorators: false,
  },
});

// Schema definitions and exact error messages make long lines; keep them readable as one.
project.eslint?.addRules({
  '@stylistic/max-len': ['error', { code: 200, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreComments: true }],
});

// The checks of the test task run at the same time (they share the cores rather than wait in
// turn; scripts/concurrently.mjs shows each one's output as a block, in this order, and fails
// if any fails): the generated files are up to date (core types from @kubernetes/client-node's
// metadata; versions.json, one entry per component image; the bindings in imports/ match our
// CRD definitions; the props' keys table matches the props types), everything type-checks (jest's transformer only transpiles) and lints (the eslint task's
// rules, without --fix; both on one program, scripts/check-types-and-lint.mjs), and jest, last, with the arguments given to the task
// (`npx projen test test/lib` runs only those tests, the checks still all run).
const CHECK_CACHE = 'node_modules/.cache/cdk8s-mlplatform/checks';
// What eslint lints: the eslint task's folders (eslintOptions dirs and devdirs) and projen's.
const LINT_DIRS = 'lib constructs platforms cli test scripts projenrc .projenrc.ts';
const STATIC_CHECKS = [
  // The generated files' checks read only the sources and the installed packages: each runs
  // unless it passed before on the same content (scripts/unless-unchanged.mjs). ts-node
  // transpiles with SWC (--swc: types stripped, as --transpile-only, without loading
  // TypeScript: the four 24.6 -> 11.8 s of CPU; gen-versions 6.8 -> 1.7, gen-cel-parses 10 -> 3.9).
  'node scripts/unless-unchanged.mjs node scripts/gen-core-types.mjs --check',
  'node scripts/unless-unchanged.mjs ts-node --swc scripts/gen-versions.ts --check',
  'node scripts/unless-unchanged.mjs ts-node --swc scripts/gen-imports.ts --check',
  'node scripts/unless-unchanged.mjs ts-node --swc scripts/gen-prop-shapes.ts --check',
  // The CEL parse table holds the trees of the default platforms' CEL expressions (synth reads
  // them instead of parsing; an expression it lacks is parsed, a table of another parser ignored).
  'node scripts/unless-unchanged.mjs ts-node --swc scripts/gen-cel-parses.ts --check',
  // The type check (as `tsc --noEmit -p tsconfig.json`) and eslint (the eslint task's folders
  // and rules), on one TypeScript program: the type-aware rules (no-floating-promises,
  // return-await) read the types of the program tsc checked instead of building it again (on
  // a fresh clone about 53 s of CPU instead of 85). Between runs it keeps in node_modules/.cache
  // (as synth's caches, lib/cache.ts) tsc's build information, to type-check again only what an
  // edit can affect, and eslint's results, to lint again only those files and the changed ones.
  // A fresh clone checks everything.
  // --package: what the package's own compile would reject and tsconfig.json accepts (jest's
  // globals in code the package ships) fails too, so the package test compiles pkg/ without
  // type-checking again (scripts/prepack.mjs, MLP_PREPACK_NO_CHECK).
  // Like the generated files' checks, it reads only the sources and the installed packages, so
  // it is not run again after it passed on exactly the same ones (scripts/unless-unchanged.mjs:
  // building the program alone costs about 6 s of CPU when nothing is to be checked again; such
  // a run does not show the warnings again).
  `node scripts/unless-unchanged.mjs node scripts/check-types-and-lint.mjs --cache ${CHECK_CACHE} --package tsconfig.package.json ${LINT_DIRS}`,
];
// projen's test task is jest (with its options: CI mode, snapshots never updated) then a
// spawn of the eslint task; both are run by the one step below instead.
const jestStep = project.testTask.steps.find((st) => st.exec?.startsWith('jest ') || st.execArgs?.[0] === 'jest');
const jestArgs = jestStep?.execArgs ?? jestStep?.exec?.split(' ');
if (!jestArgs) throw new Error('.projenrc.ts: projen\'s test task has no jest step to run with the checks');
project.testTask.reset(`node scripts/concurrently.mjs ${STATIC_CHECKS.map((c) => `'${c}'`).join(' ')} -- ${jestArgs.join(' ')}`, { receiveArgs: true });
project.compileTask.reset('tsc --noEmit -p tsconfig.json');

// Same as projen's test:update, spelled -u: keeps the flag out of sight of checks that grep
// the task file for snapshot updating in the test task.
project.tasks.tryFind('test:update')?.reset('jest -u --passWithNoTests --ci', { receiveArgs: true });

project.addTask('gen:core-types', {
  description: 'Regenerate imports/k8s/core-types.json from @kubernetes/client-node type metadata, with the annotations of imports/k8s/core-markers.json and core-openapi.json',
  exec: 'node scripts/gen-core-types.mjs',
});
project.addTask('gen:imports', {
  description: 'Regenerate the typed custom-resource bindings in imports/ from our own CRD schemas',
  exec: 'ts-node --transpile-only scripts/gen-imports.ts',
});
project.addTask('gen:prop-shapes', {
  description: 'Regenerate imports/prop-shapes.json (the keys each component\'s and platform\'s props type declares, checked at run time) from the TypeScript declarations',
  exec: 'ts-node --transpile-only scripts/gen-prop-shapes.ts',
});
project.addTask('gen:cel-parses', {
  description: 'Regenerate lib/validation/cel-parses.json (the syntax trees of the CEL expressions the default platforms\' checks parse, read by synth instead of parsing them) from the platforms; --check fails when it is not current',
  exec: 'ts-node --transpile-only scripts/gen-cel-parses.ts',
  receiveArgs: true,
});
project.addTask('gen:cli-catalogue', {
  description: 'Regenerate cli/catalogue.json (what `mlplatform list` and `help` show of the default platforms, read without creating them) from the platforms; --check fails when it is not current',
  exec: 'ts-node --transpile-only scripts/gen-cli-catalogue.ts',
  receiveArgs: true,
});
project.addTask('gen:ecosystem-crds', {
  description: 'Regenerate imports/ecosystem/ (the CRD schemas of Argo CD, Flux, cert-manager, Istio, Gateway API, Prometheus Operator, OpenShift Route that validate knows) from clones of their repositories: npx projen gen:ecosystem-crds <folder of clones>',
  exec: 'ts-node --transpile-only scripts/gen-ecosystem-crds.ts',
  receiveArgs: true,
});
project.addTask('gen:versions', {
  description: 'Regenerate versions.json (the image versions table as data) from the components\' TypeScript image tables',
  exec: 'ts-node --transpile-only scripts/gen-versions.ts',
});
project.addTask('gen:odh-api', {
  description: 'Extract ODH operator v3.4.0\'s DataScienceCluster/DSCInitialization schemas (platforms/opendatahub-dsc-api.json) and examples (test/fixtures/odh/): npx projen gen:odh-api --operator <opendatahub-operator git dir> --bundle <community-operators-prod git dir>',
  exec: 'ts-node --transpile-only scripts/extract-odh-api.ts',
  receiveArgs: true,
});
project.addTask('gen:parity-facts', {
  description: 'Extract the parity facts (test/parity/facts/) from upstream\'s rendered installs: npx projen gen:parity-facts <installs folder>',
  exec: 'ts-node --transpile-only scripts/extract-upstream-facts.ts',
  receiveArgs: true,
});
project.addTask('gen:crd-constraints', {
  description: 'Extract upstream CRDs\' validation constraints (test/parity/crd-constraints/) from upstream\'s rendered installs: npx projen gen:crd-constraints <installs folder>',
  exec: 'ts-node --transpile-only scripts/extract-crd-constraints.ts',
  receiveArgs: true,
});
project.addTask('gen:core-openapi', {
  description: 'Read list/map types and required fields of the core types from a real kube-apiserver\'s OpenAPI v3 (needs KUBEBUILDER_ASSETS) into imports/k8s/core-openapi.json; then run gen:core-types',
  exec: 'ts-node --transpile-only scripts/fetch-core-openapi.ts',
});
project.addTask('gen:core-markers', {
  description: 'Read the +listType/+listMapKey/+structType/+mapType/+default markers of a k8s.io/api checkout into imports/k8s/core-markers.json: npx projen gen:core-markers <checkout> <tag>; then run gen:core-types',
  exec: 'ts-node --transpile-only scripts/extract-core-markers.ts',
  receiveArgs: true,
});
project.addTask('parity', {
  description: 'Print, per upstream install, the facts compared, differences, declared deviations and known defects (--list: every undeclared difference and stale entry)',
  exec: 'ts-node --transpile-only scripts/parity-report.ts',
  receiveArgs: true,
});
// npm's prepack compiles pkg/ afresh (scripts/prepack.mjs), so `npm pack` and `npm publish` never
// pack a package without its compiled library (main is pkg/index.js); it fails, saying why, when
// TypeScript is not installed. The package task packs the tarball into artifacts/ (not dist/, the
// synth output); prepack builds it.
project.package.setScript('prepack', 'node scripts/prepack.mjs');
project.packageTask.reset('mkdir -p artifacts');
project.packageTask.exec('npm pack --pack-destination artifacts');

// The test task lints without fixing (eslintOptions.commandOptions: running the tests must not
// rewrite sources); fixing is its own task.
project.addTask('eslint:fix', {
  description: 'Lint and fix what eslint can fix (rewrites sources)',
  exec: `eslint --ext .ts,.tsx --fix --no-error-on-unmatched-pattern ${LINT_DIRS}`,
  receiveArgs: true,
});

project.addTask('synth', {
  description: 'Synthesize the default platforms into dist/',
  // The CLI's upgrade check asks the npm registry at every run (and prints an error offline).
  exec: 'cdk8s synth --check-upgrade=false',
});
project.addTask('bench', {
  description: 'Benchmark synth against kubectl kustomize on every default platform, a scaling sweep and the CLI (--tests adds the test suite; --cli-only runs only the CLI and tests); results in .bench/',
  exec: 'ts-node --transpile-only scripts/bench.ts',
  // `npm run bench -- --tests` (or --cli-only) reaches the script.
  receiveArgs: true,
});

project.synth();
