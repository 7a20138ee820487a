import { checkDnsLabel, checkDnsSubdomain, checkLabelValue, checkPathSegment, checkQualifiedName } from '../../../lib/validation';

describe('name and label syntax', () => {
  test('accepts valid names', () => {
    expect(checkDnsLabel('web-1')).toBeUndefined();
    expect(checkDnsSubdomain('models.serving.example.com')).toBeUndefined();
    expect(checkPathSegment('system:controller:model')).toBeUndefined();
    expect(checkQualifiedName('app.kubernetes.io/name')).toBeUndefined();
    expect(checkQualifiedName('Tier_1.x')).toBeUndefined();
    expect(checkLabelValue('')).toBeUndefined();
    expect(checkLabelValue('v1.2_3-a')).toBeUndefined();
  });

  test('fails when names break the rules', () => {
    expect(checkDnsLabel('a'.repeat(64))).toBeDefined();
    expect(checkDnsLabel('web.api')).toBeDefined();
    expect(checkDnsSubdomain('-web')).toBeDefined();
    expect(checkPathSegment('a/b')).toBeDefined();
    expect(checkPathSegment('..')).toBeDefined();
    expect(checkQualifiedName('/name')).toBeDefined();
    expect(checkQualifiedName('Example.com/name')).toBeDefined();
    expect(checkQualifiedName(`x/${'a'.repeat(64)}`)).toBeDefined();
    expect(checkLabelValue('-x')).toBeDefined();
    expect(checkLabelValue('a'.repeat(64))).toBeDefined();
  });
});
