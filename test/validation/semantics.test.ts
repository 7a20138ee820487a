import { checkDataKey, checkPortName, parseCidr, parseIp, parseQuantity, selectorMatches, semanticIssues } from '../../lib/validation';

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
