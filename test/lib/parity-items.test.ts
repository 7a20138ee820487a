import { deviationCovers, DeviationCategory, FactKind, patternMatches } from '../../lib/parity';
import { itemDeviations, rbacItems, valueDeviation } from '../../lib/parity-items';

describe('itemDeviations', () => {
  const [wildcard, plain] = itemDeviations({ kind: FactKind.RBAC, object: 'Deployment/x', status: 'missing' }, ['|pods|*', '|pods|get'], DeviationCategory.SCOPED_RBAC, 'r');
  const diff = (item: string) => ({ kind: FactKind.RBAC, object: 'Deployment/x', item, status: 'missing' as const });

  test('one deviation per item, each matching only that item: a * in an item is literal', () => {
    expect(patternMatches(wildcard.fact, diff('|pods|*'))).toBe(true);
    expect(patternMatches(wildcard.fact, diff('|pods|list'))).toBe(false);
    expect(patternMatches(plain.fact, diff('|pods|get'))).toBe(true);
    expect(patternMatches(plain.fact, diff('|pods|get2'))).toBe(false);
  });

  test('with { patterns: true } a * in an item matches anything (every verb of a resource left out)', () => {
    const [every] = itemDeviations({ kind: FactKind.RBAC, object: 'Deployment/x', status: 'missing' }, ['|pods|*'], DeviationCategory.SCOPED_RBAC, 'r', { patterns: true });
    expect(patternMatches(every.fact, diff('|pods|list'))).toBe(true);
    expect(patternMatches(every.fact, diff('|services|list'))).toBe(false);
  });

  test('rbacItems: group|resource|verb for each resource and verb', () => {
    expect(rbacItems('apps', ['deployments', 'statefulsets'], ['get', 'list'])).toEqual(['apps|deployments|get', 'apps|deployments|list', 'apps|statefulsets|get', 'apps|statefulsets|list']);
  });
});

describe('valueDeviation', () => {
  const dev = valueDeviation({ kind: FactKind.ENV, object: 'Deployment/x container m', item: 'ARGS' }, 'value --a=*', DeviationCategory.PLATFORM_INTEGRATION, 'r');
  const diff = (expected: string) => ({ kind: FactKind.ENV, object: 'Deployment/x container m', item: 'ARGS', status: 'differs' as const, expected, actual: 'value --b' });

  test('covers the difference only while upstream\'s value is exactly the one stated (a * in it is literal)', () => {
    expect(dev.fact).toMatchObject({ status: 'differs', upstream: 'value --a=\\*' });
    expect(deviationCovers(dev, diff('value --a=*'))).toBe(true);
    expect(deviationCovers(dev, diff('value --a=1'))).toBe(false);
  });
});
