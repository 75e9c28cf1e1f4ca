import { describe, expect, it } from 'vitest';
import { nodeSatisfies, unsupportedNodeMessage } from './node-version.ts';

describe('nodeSatisfies', () => {
  it('compares major, minor and patch against a >= range', () => {
    expect(nodeSatisfies('v22.19.0', '>=22.19')).toBe(true);
    expect(nodeSatisfies('22.23.3', '>=22.19')).toBe(true);
    expect(nodeSatisfies('v24.0.0', '>=22.19')).toBe(true);
    expect(nodeSatisfies('v22.12.0', '>=22.19')).toBe(false);
    expect(nodeSatisfies('v20.20.2', '>=22.19')).toBe(false);
    expect(nodeSatisfies('v22.19.0', '>=22.19.1')).toBe(false);
  });

  it('refuses a range form it does not understand instead of guessing', () => {
    expect(() => nodeSatisfies('v22.19.0', '^22 || >=24')).toThrow(/cannot compare/);
  });
});

describe('unsupportedNodeMessage', () => {
  it('names the Node that is needed and the one that runs', () => {
    expect(unsupportedNodeMessage('v20.20.2', '>=22.19')).toMatch(
      /needs Node\.js >=22\.19; this is Node\.js v20\.20\.2/,
    );
    expect(unsupportedNodeMessage('v24.21.0', '>=22.19')).toBeUndefined();
  });
});
