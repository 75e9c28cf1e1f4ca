import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { ControlError } from './operations.ts';
import { MAX_TRIGGER_DATA_BYTES } from './routes.ts';

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

  it('refuses a fault for a tenant the fixtures do not have (it would never fire), as a trigger for one', () => {
    sandbox = createSandbox();
    for (const tenant of ['someone-else', '\u00a0harbour-kitchens'])
      expect(() => sandbox.control.addFault({ kind: 'internal', route: 'listProviders', tenant })).toThrow(
        /No tenant .* in the fixtures/,
      );
    expect(
      sandbox.control.addFault({ kind: 'internal', route: 'listProviders', tenant: 'harbour-kitchens' }),
    ).toBeTruthy();
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

  it('refuses sample-event data over MAX_TRIGGER_DATA_BYTES (every event is retained by count, not bytes)', () => {
    sandbox = createSandbox();
    const tenant = 'harbour-kitchens';
    const big = () =>
      sandbox.control.trigger({ event: 'order.paid', tenant, data: { note: 'x'.repeat(MAX_TRIGGER_DATA_BYTES) } });
    expect(big).toThrow(ControlError);
    expect(big).toThrow(/at most 16384/);
    const fits = sandbox.control.trigger({ event: 'order.paid', tenant, data: { note: 'x'.repeat(1000) } });
    expect(fits).toMatchObject({ event: 'order.paid', data: { note: 'x'.repeat(1000) } });
  });
});
