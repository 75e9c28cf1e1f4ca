import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { ControlError } from './operations.ts';

let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());

describe('control operations the inspector calls', () => {
  it('sets and switches off the rate limit, refusing settings out of range as ControlError', () => {
    sandbox = createSandbox();
    expect(sandbox.control.setRateLimit({ limit: 5, windowSeconds: 10 })).toEqual({
      rateLimit: { limit: 5, windowSeconds: 10 },
    });
    expect(sandbox.control.setRateLimit(false)).toEqual({ rateLimit: false });
    const bad = () => sandbox.control.setRateLimit({ limit: 0, windowSeconds: 10 });
    expect(bad).toThrow(ControlError);
    expect(bad).toThrow(/rate limit must be a whole number >= 1/);
  });

  it('answers not_found for a delivery that is not in the log', () => {
    sandbox = createSandbox();
    try {
      sandbox.control.redeliver('dlv_nope');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ControlError);
      expect((err as ControlError).code).toBe('not_found');
    }
  });
});
