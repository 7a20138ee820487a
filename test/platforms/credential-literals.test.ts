import { App } from 'cdk8s';
import { buildPlatform } from '../../lib/synth';
import { DEFAULT_PLATFORMS } from '../../platforms';

/**
 * No password, client secret or other credential reaches any default platform's output as a
 * literal: credentials are references to Secrets the platform team creates. Independent of
 * the synth-time check MLP040 (Secrets only), this scans every object.
 */

/** Names of variables, keys and flags that hold a credential. */
const CREDENTIAL_NAME = /pass(word|wd)|secret|token|credential|api[-_]?key|private[-_]?key|access[-_]?key/i;
/** Flag-like values that are settings, not credentials (MYSQL_ALLOW_EMPTY_PASSWORD=true). */
const SETTING = /^(true|false|yes|no|on|off|\d+|)$/i;
/** Variables that name where a credential is (a Secret's name, a file), not the credential. */
const REFERENCE_NAME = /(_NAME|_PATH|_DIR|_FILE|_REF)$/i;
/** Configuration keys holding code, which reads credentials at run time (e.g. the Pipelines profile hook's sync.js). */
const CODE_KEY = /\.(js|py|sh)$/;
/** A bcrypt hash (Dex's password hashes). */
const BCRYPT = /\$2[aby]?\$\d\d\$[./A-Za-z0-9]{53}/;
/** `password: x`, `client_secret = "x"`, `--password=x` inside a configuration text or an argument. */
const ASSIGNMENT = /\b(password|passwd|client[_-]?secret|cookie[_-]?secret|secret[_-]?key)\b["']?\s*[:=]\s*["']?([^\s"',}]+)/gi;

/** Every literal credential in `objects`, one line each (kind/namespace/name: where). */
export function credentialLiterals(objects: readonly any[]): string[] {
  const out: string[] = [];
  for (const o of objects) {
    const id = `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
    if (o.kind === 'Secret') {
      for (const field of ['data', 'stringData']) {
        for (const [k, v] of Object.entries(o[field] ?? {})) if (v !== '' && v !== null) out.push(`${id}: ${field}.${k} holds a value`);
      }
    }
    if (o.kind === 'CustomResourceDefinition') continue; // schemas: descriptions, no values
    const walk = (v: any, path: string): void => {
      if (typeof v === 'string') {
        if (BCRYPT.test(v)) out.push(`${id}: ${path} holds a bcrypt hash`);
        if ((o.kind === 'ConfigMap' && !CODE_KEY.test(path)) || /\.(args|command)\[\d+\]$/.test(path)) {
          for (const m of v.matchAll(ASSIGNMENT)) if (!/^(\$|\{\{|<)/.test(m[2]) && !SETTING.test(m[2])) out.push(`${id}: ${path} sets ${m[1]} literally`);
        }
        return;
      }
      if (Array.isArray(v)) {
        v.forEach((x, i) => walk(x, `${path}[${i}]`));
        return;
      }
      if (v && typeof v === 'object') {
        // An env entry: { name, value }.
        if (typeof v.name === 'string' && typeof v.value === 'string' && CREDENTIAL_NAME.test(v.name) && !REFERENCE_NAME.test(v.name) && !SETTING.test(v.value) && !/^(\$\(|\/)/.test(v.value)) {
          out.push(`${id}: ${path} sets ${v.name} literally`);
        }
        for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
      }
    };
    walk(o.data ?? {}, 'data');
    walk(o.spec ?? {}, 'spec');
  }
  return out;
}

describe('no password or client secret literal in any default platform\'s output', () => {
  test.each(DEFAULT_PLATFORMS.map((p) => [p.name, p] as const))('%s', (_name, p) => {
    const b = buildPlatform(p.create(new App({ outdir: '/nonexistent' })));
    expect(credentialLiterals(b.model.objects.map((o) => o.json))).toEqual([]);
  });

  test('finds what kubeflow/manifests v1.11.0 ships (a Secret with the client secret, a bcrypt hash, a literal in a configuration text)', () => {
    const hash = `$2y$12$${'a'.repeat(53)}`;
    expect(credentialLiterals([
      { kind: 'Secret', metadata: { name: 'dex-passwords', namespace: 'auth' }, stringData: { DEX_USER_PASSWORD: hash } },
      { kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'a' }, data: { 'x.cfg': 'client_secret = "s3cr3t"\ncookie_secret: abc', 'ok.cfg': 'client_secret = "${SECRET}"' } },
      { kind: 'Deployment', metadata: { name: 'd', namespace: 'a' }, spec: { template: { spec: { containers: [{ args: ['--password=hunter2'], env: [{ name: 'DB_PASSWORD', value: 'hunter2' }, { name: 'MYSQL_ALLOW_EMPTY_PASSWORD', value: 'true' }] }] } } } },
    ])).toEqual([
      'Secret auth/dex-passwords: stringData.DEX_USER_PASSWORD holds a value',
      'ConfigMap a/cfg: data.x.cfg sets client_secret literally',
      'ConfigMap a/cfg: data.x.cfg sets cookie_secret literally',
      'Deployment a/d: spec.template.spec.containers[0].args[0] sets password literally',
      'Deployment a/d: spec.template.spec.containers[0].env[0] sets DB_PASSWORD literally',
    ]);
  });
});
