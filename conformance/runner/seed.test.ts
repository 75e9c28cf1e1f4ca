import { describe, expect, it } from 'vitest';
import { commandOptions } from './run-command.ts';
import { optionsFromEnv, resolveOptions, UsageError } from './options.ts';

describe('the seed of the generated probes', () => {
  const baseUrl = 'http://127.0.0.1:4010';
  it('keeps a given seed', () => {
    expect(resolveOptions({ baseUrl, seed: 42 }).seed).toBe(42);
    expect(resolveOptions({ baseUrl, seed: 0 }).seed).toBe(0);
  });
  it('draws one per run when none is given', () => {
    const seed = resolveOptions({ baseUrl }).seed;
    expect(Number.isInteger(seed) && seed >= 0).toBe(true);
  });
  it('refuses a seed that is not a whole 31-bit number', () => {
    for (const seed of [-1, 1.5, 2 ** 31, Number.NaN])
      expect(() => resolveOptions({ baseUrl, seed })).toThrow(UsageError);
  });
  // Commander hands --seed over parsed by the RUN_OPTIONS row (a number); NCS_SEED is read by the same row.
  it('comes from --seed or NCS_SEED', () => {
    expect(optionsFromEnv({ NCS_SEED: '7' }).seed).toBe(7);
    expect(commandOptions({ seed: 9 }, { NCS_SEED: '7' }).seed).toBe(9);
  });
});
