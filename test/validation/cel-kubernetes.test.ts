import { compileCel } from '../../lib/validation';

/** Evaluates a CEL expression with `self` bound; a compile failure or an unsupported function fails the test. */
function evaluate(expr: string, self: unknown = new Map()): unknown {
  const rule = compileCel(expr);
  if (typeof rule === 'string') throw new Error(`${expr}: ${rule}`);
  if (rule.unsupported.length) throw new Error(`${expr}: unsupported ${rule.unsupported.join(', ')}`);
  const result = rule.run(self as any);
  return result instanceof Error ? `error: ${result.message}` : result;
}

describe('Kubernetes CEL libraries', () => {
  test.each([
    // lists
    ['[1, 2, 3].isSorted()', true],
    ['[3, 1].isSorted()', false],
    ['["a", "b"].isSorted()', true],
    ['[1, 2, 3].sum() == 6', true],
    ['[1.5, 2.5].sum() == 4.0', true],
    ['[4, 2, 9].min() == 2', true],
    ['[4, 2, 9].max() == 9', true],
    ['["a", "b", "a"].indexOf("a") == 0', true],
    ['["a", "b", "a"].lastIndexOf("a") == 2', true],
    ['[1, 2].indexOf(3) == -1', true],
    ['"abc".indexOf("c") == 2', true],
    // regex
    ['"abc 123 def 456".find("[0-9]+") == "123"', true],
    ['"abc".find("[0-9]+") == ""', true],
    ['"a1b22c333".findAll("[0-9]+") == ["1", "22", "333"]', true],
    ['"a1b22c333".findAll("[0-9]+", 2) == ["1", "22"]', true],
    // quantity
    ['quantity("1Gi").isLessThan(quantity("2Gi"))', true],
    ['quantity("1500m").isGreaterThan(quantity("1"))', true],
    ['quantity("1k").compareTo(quantity("1000")) == 0', true],
    ['quantity("1Ki").asInteger() == 1024', true],
    ['quantity("500m").isInteger()', false],
    ['quantity("-2").sign() == -1', true],
    ['quantity("1").add(quantity("500m")).asApproximateFloat() == 1.5', true],
    ['quantity("2").sub(1).asInteger() == 1', true],
    ['isQuantity("2Gi")', true],
    ['isQuantity("2 GB")', false],
    // URL
    ['url("https://example.com:8443/a/b?x=1&x=2").getScheme() == "https"', true],
    ['url("https://example.com:8443/a/b").getHost() == "example.com:8443"', true],
    ['url("https://example.com:8443/a/b").getHostname() == "example.com"', true],
    ['url("https://example.com:8443/a/b").getPort() == "8443"', true],
    ['url("https://example.com/a/b").getEscapedPath() == "/a/b"', true],
    ['url("https://example.com/?x=1&x=2").getQuery() == {"x": ["1", "2"]}', true],
    ['url("/healthz").getEscapedPath() == "/healthz"', true],
    ['isURL("https://example.com")', true],
    ['isURL("example com")', false],
    // IP and CIDR
    ['ip("10.0.0.1").family() == 4', true],
    ['ip("2001:db8::1").family() == 6', true],
    ['ip("127.0.0.1").isLoopback()', true],
    ['ip("::1").isLoopback()', true],
    ['ip("0.0.0.0").isUnspecified()', true],
    ['ip("169.254.1.1").isLinkLocalUnicast()', true],
    ['ip("8.8.8.8").isGlobalUnicast()', true],
    ['isIP("10.0.0.256")', false],
    ['isIP("010.0.0.1")', false],
    ['cidr("10.0.0.0/8").containsIP("10.1.2.3")', true],
    ['cidr("10.0.0.0/8").containsIP(ip("11.0.0.1"))', false],
    ['cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16")', true],
    ['cidr("10.1.0.0/16").containsCIDR(cidr("10.0.0.0/8"))', false],
    ['cidr("10.1.2.3/8").prefixLength() == 8', true],
    ['cidr("10.1.2.3/8").masked() == cidr("10.0.0.0/8")', true],
    ['cidr("fd00:1::5/32").ip() == ip("fd00:1::5")', true],
    ['isCIDR("10.0.0.0/33")', false],
  ])('%s', (expr, expected) => {
    expect(evaluate(expr)).toBe(expected);
  });

  test('errors: an empty list has no min, an invalid quantity or URL does not parse', () => {
    expect(evaluate('[].min()')).toMatch(/^error: .*empty list/);
    expect(evaluate('quantity("2 GB")')).toMatch(/^error: .*invalid quantity/);
    expect(evaluate('url("not a url")')).toMatch(/^error: .*invalid URL/);
    expect(evaluate('ip("10.0.0.1").getHost()')).toMatch(/^error: .*expected a value of type URL/);
  });

  test('functions of the semver library compile but are reported as unsupported', () => {
    const rule = compileCel('isSemver(self) && semver(self).major() >= 1');
    expect(typeof rule).toBe('object');
    expect(typeof rule === 'object' && rule.unsupported.sort()).toEqual(['isSemver', 'major', 'semver']);
    expect(compileCel('self.frobnicate()')).toBe('unknown function frobnicate');
    expect(compileCel('format.frobnicate()')).toBe('unknown function frobnicate');
  });

  test.each([
    ['!format.dns1123Label().validate(self).hasValue()', 'my-model', true],
    ['!format.dns1123Label().validate(self).hasValue()', 'My_Model', false],
    ['!format.dns1123Subdomain().validate(self).hasValue()', 'models.example.com', true],
    ['!format.dns1035Label().validate(self).hasValue()', '1model', false],
    ['!format.dns1123LabelPrefix().validate(self).hasValue()', 'worker-', true],
    ['!format.dns1123Label().validate(self).hasValue()', 'worker-', false],
    ['!format.qualifiedName().validate(self).hasValue()', 'example.com/team', true],
    ['!format.labelValue().validate(self).hasValue()', 'a b', false],
    ['!format.uuid().validate(self).hasValue()', '123e4567-e89b-12d3-a456-426614174000', true],
    ['!format.uuid().validate(self).hasValue()', '123e4567', false],
    ['!format.date().validate(self).hasValue()', '2024-02-30', false],
    ['!format.datetime().validate(self).hasValue()', '2024-02-28T12:00:00Z', true],
    ['!format.byte().validate(self).hasValue()', 'aGVsbG8=', true],
    ['!format.uri().validate(self).hasValue()', 'https://example.com/x', true],
    ['!format.uri().validate(self).hasValue()', 'not a uri', false],
    ["format.named('dns1123Label').value().validate(self).hasValue()", 'UPPER', true],
    ["format.named('noSuchFormat').hasValue()", 'x', false],
    ["format.named('noSuchFormat').orValue(format.labelValue()).validate(self).hasValue()", 'ok', false],
    ['format.dns1123Label().validate(self).value().size() == 1', 'UPPER', true],
    ['optional.of(1).value() == 1 && !optional.none().hasValue()', '', true],
  ])('%s with self = %p is %p', (expr, self, result) => {
    expect(evaluate(expr, self)).toBe(result);
  });

  test('value() of an empty optional is an error', () => {
    expect(evaluate('format.dns1123Label().validate(self).value()', 'fine')).toMatch(/^error: .*no value/);
  });

  test('rules read values from self', () => {
    expect(evaluate('self.limits.all(l, quantity(l).isLessThan(quantity("8Gi")))', new Map([['limits', ['1Gi', '4Gi']]]))).toBe(true);
    expect(evaluate('self.limits.all(l, quantity(l).isLessThan(quantity("8Gi")))', new Map([['limits', ['1Gi', '16Gi']]]))).toBe(false);
  });
});
