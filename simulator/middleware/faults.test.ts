import { describe, expect, it } from 'vitest';
import { createFaultStore } from '../state/fault-store.ts';
import { faultStep } from './faults.ts';
import { okResponse, testContext } from '../test-support/test-context.ts';

describe('faultStep', () => {
  it('applies a fault to the next N matching calls only', async () => {
    const faults = createFaultStore();
    faults.add({ kind: 'rate_limited', route: 'x', remaining: 2, retryAfterSeconds: 3 });
    const mw = faultStep(faults).run;
    const call = () => mw(testContext(), async () => okResponse());
    await expect(call()).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '3' } });
    await expect(call()).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(call()).resolves.toMatchObject({ status: 200 });
  });
  it('matches method and route', () => {
    const faults = createFaultStore();
    faults.add({ kind: 'internal', method: 'POST', route: '/api/public/v1/connections', remaining: 1 });
    expect(faults.take({ method: 'GET', path: '/api/public/v1/connections' })).toBeUndefined();
    expect(faults.take({ method: 'POST', path: '/api/public/v1/connections' })?.kind).toBe('internal');
    expect(faults.list()).toEqual([]);
  });
});
