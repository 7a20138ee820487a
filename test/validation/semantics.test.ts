import { checkDataKey, checkPortName, cronProblem, parseCidr, parseIp, parseQuantity, selectorMatches, semanticIssues } from '../../lib/validation';

describe('helpers of the API server rules', () => {
  test.each([
    ['500m', 0.5], ['2Gi', 2 * 2 ** 30], ['1e3', 1000], ['1.5', 1.5], ['100Ki', 102400], ['3', 3], [4, 4], ['.5', 0.5], ['-1', -1],
  ] as const)('parseQuantity(%p) = %p', (q, v) => {
    expect(parseQuantity(q)).toBeCloseTo(v);
  });

  test.each(['2 GB', '1.5cores', '', 'Gi', '1iG'])('parseQuantity(%p) is not a quantity', (q) => {
    expect(parseQuantity(q)).toBeUndefined();
  });

  test('parseIp and parseCidr', () => {
    expect(parseIp('10.1.2.3')).toEqual([10, 1, 2, 3]);
    expect(parseIp('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(parseIp('2001:db8::')).toEqual([0x20, 0x01, 0x0d, 0xb8, ...Array(12).fill(0)]);
    expect(parseIp('::ffff:10.0.0.1')?.slice(10)).toEqual([0xff, 0xff, 10, 0, 0, 1]);
    for (const bad of ['10.0.0', '10.0.0.256', '01.0.0.1', '1::2::3', 'fe80::1%eth0', 'x', '1:2:3:4:5:6:7:8:9']) expect(parseIp(bad)).toBeUndefined();
    expect(parseCidr('10.0.0.0/8')).toEqual({ bytes: [10, 0, 0, 0], prefix: 8 });
    expect(parseCidr('fd00::/129')).toBeUndefined();
    expect(parseCidr('10.0.0.0')).toBeUndefined();
  });

  test('selectorMatches: matchLabels and every operator', () => {
    const labels = { app: 'web', tier: 'front' };
    expect(selectorMatches({ matchLabels: { app: 'web' } }, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { app: 'api' } }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels)).toBe(false);
  });

  test('port names and data keys', () => {
    expect(checkPortName('http-metrics')).toBeUndefined();
    for (const bad of ['8080', 'HTTP', 'a--b', 'averyveryverylongname', '-http']) expect(checkPortName(bad)).toBeDefined();
    expect(checkDataKey('.env')).toBeUndefined();
    expect(checkDataKey('app_config-1.yaml')).toBeUndefined();
    for (const bad of ['.', '..', '..data', 'a/b', 'a b', 'x'.repeat(254)]) expect(checkDataKey(bad)).toBeDefined();
  });

  test('semanticIssues on a kind without code rules is empty; a Pod with two problems gives both', () => {
    expect(semanticIssues({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml' } })).toEqual([]);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/v' }] }, { name: 'a', image: 'y' }] } };
    expect(semanticIssues(pod).map((i) => `${i.rule} ${i.path}`)).toEqual([
      'K8S-REFERENCE spec.containers[0].volumeMounts[0].name',
      'K8S-UNIQUE spec.containers[1].name',
    ]);
  });
});

describe('CronJob schedules as the API server parses them', () => {
  test.each([
    '0 3 * * *', '*/15 9-17 * * 1-5', '0 0 1,15 * *', '30 2 * JAN-MAR sun', '0 */2 * * ?', '5/10 * * * *',
    '@hourly', '@daily', '@midnight', '@weekly', '@monthly', '@yearly', '@annually', '@every 1h30m', '  0 3 * * *  ',
  ])('%p parses', (s) => {
    expect(cronProblem(s)).toBeUndefined();
  });

  test.each([
    ['0 3 * *', /has 4 fields/],
    ['0 3 * * * *', /has 6 fields/],
    ['60 * * * *', /minute field/],
    ['0 24 * * *', /hour field/],
    ['0 0 0 * *', /day of month field/],
    ['0 0 * 13 *', /month field/],
    ['0 0 * * 7', /day of week field/],
    ['0 0 * * MON-FRY', /day of week field/],
    ['*/0 * * * *', /bad step/],
    ['0 5-3 * * *', /hour field/],
    ['0 0 L * *', /day of month field/],
    ['@fortnightly', /not a known descriptor/],
    ['@every 10 minutes', /not a known descriptor/],
    ['CRON_TZ=UTC 0 3 * * *', /spec.timeZone/],
  ])('%p does not parse', (s, why) => {
    expect(cronProblem(s)).toMatch(why);
  });
});

describe('pod rules in code', () => {
  const pod = (spec: object) => semanticIssues({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i:1' }], ...spec } });
  const rules = (spec: object) => pod(spec).map((i) => `${i.rule} ${i.path}`);

  test('a volume without a source is an emptyDir; two sources are not allowed', () => {
    expect(rules({ volumes: [{ name: 'v' }] })).toEqual([]);
    expect(rules({ volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }] })).toEqual(['K8S-VOLUME spec.volumes[0]']);
  });

  test('extended resources and hugepages: a limit alone is fine, a request needs an equal limit', () => {
    const res = (resources: object) => rules({ containers: [{ name: 'c', image: 'i:1', resources }] });
    expect(res({ limits: { 'nvidia.com/gpu': 1 } })).toEqual([]);
    expect(res({ requests: { 'nvidia.com/gpu': 1 }, limits: { 'nvidia.com/gpu': 1 } })).toEqual([]);
    expect(res({ requests: { 'nvidia.com/gpu': 1 } })).toEqual(['K8S-RESOURCES spec.containers[0].resources.limits["nvidia.com/gpu"]']);
    expect(res({ requests: { cpu: '100m' }, limits: { cpu: '1' } })).toEqual([]);
    expect(res({ limits: { 'hugepages-2Mi': '64Mi' } })).toEqual(['K8S-RESOURCES spec.containers[0].resources']);
    expect(res({ limits: { 'hugepages-2Mi': '3Mi', 'memory': '1Gi' } })).toEqual(['K8S-RESOURCES spec.containers[0].resources.limits.hugepages-2Mi']);
  });

  test('images: required in Pods and templates; surrounding spaces only matter in a Pod', () => {
    const template = (image?: string) => semanticIssues({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image }] } } },
    }).map((i) => i.rule);
    expect(template(undefined)).toEqual(['K8S-POD']);
    expect(template(' ')).toEqual([]);
    expect(rules({ containers: [{ name: 'c', image: ' i:1' }] })).toEqual(['K8S-POD spec.containers[0].image']);
  });

  test('sysctls: syntax, duplicates, and net.* with hostNetwork', () => {
    const sysctls = (names: string[], hostNetwork = false) => rules({ hostNetwork, securityContext: { sysctls: names.map((name) => ({ name, value: '1' })) } });
    expect(sysctls(['net.core.somaxconn', 'kernel/shm_rmid_forced'])).toEqual([]);
    expect(sysctls(['Net.core'])).toHaveLength(1);
    expect(sysctls(['net.core.somaxconn', 'net.core.somaxconn'])).toHaveLength(1);
    expect(sysctls(['net.core.somaxconn'], true)).toHaveLength(1);
  });
});
