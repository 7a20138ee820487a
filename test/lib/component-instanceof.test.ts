import { Chart } from 'cdk8s';
import { newPlatform, OtherComponent, TestComponent } from './support';
import { Component } from '../../lib/component';

describe('Component instanceof', () => {
  test('is answered by the prototype chain, not by "is a chart"', () => {
    const p = newPlatform();
    const plain = new TestComponent(p, 'plain');
    const other = new OtherComponent(p, 'other');
    expect(plain instanceof Component).toBe(true);
    expect(plain instanceof TestComponent).toBe(true);
    expect(plain instanceof OtherComponent).toBe(false);
    expect(other instanceof TestComponent).toBe(true);
    expect(new Chart(p, 'chart') instanceof TestComponent).toBe(false);
    expect(p.components.filter((c) => c instanceof OtherComponent)).toEqual([other]);
  });
});
