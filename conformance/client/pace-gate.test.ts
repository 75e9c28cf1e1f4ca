import { describe, expect, it } from 'vitest';
import { gated, openRetried, paceGate } from './pace-gate.ts';

const answer = (status: number, retryAfter?: string) => ({
  status,
  headers: { get: (name: string) => (name === 'retry-after' ? (retryAfter ?? null) : null) },
});

describe('the run paced by a 429', () => {
  it("a retried request's 429 holds every later request for its Retry-After", async () => {
    let t = 0;
    const slept: number[] = [];
    const gate = paceGate(
      60_000,
      () => t,
      async (ms) => {
        slept.push(ms);
        t += ms;
      },
      () => 0.4,
    );
    await gated(gate, async () => answer(429, '2'), true);
    await gate.wait();
    // Released with a random spread of up to 250 ms (here drawn 0.4 of it); a request not held gets none.
    expect(slept).toEqual([2000, 100]);
    await gate.wait();
    expect(slept).toEqual([2000, 100]);
  });

  it('a 429 to a request outside the retry policy (a probe of the limit) holds nothing', async () => {
    const gate = paceGate(60_000, () => 0);
    await gated(gate, async () => answer(429, '30'), false);
    await expect(
      Promise.race([gate.wait().then(() => 'open'), new Promise((r) => setTimeout(() => r('held'), 50))]),
    ).resolves.toBe('open');
  });

  it('a wait beyond its cap (not retried) holds nothing, counted as ignored (round 9: it held the run 60 s)', async () => {
    let t = 0;
    const gate = paceGate(
      1000,
      () => t,
      async (ms) => {
        t += ms;
      },
      () => 0,
    );
    gate.hold(3_600_000);
    await gate.wait();
    expect(t).toBe(0);
    expect(gate.held).toMatchObject({ times: 0, ignored: 1, longestIgnoredMs: 3_600_000 });
    gate.hold(1000);
    await gate.wait();
    expect(t).toBe(1000);
  });

  it('heldSince measures how long the run was held since a time, overlapping holds counted once', () => {
    let t = 0;
    const gate = paceGate(60_000, () => t);
    gate.hold(1000);
    t = 500;
    expect(gate.heldSince(0)).toBe(500);
    t = 2000;
    expect(gate.heldSince(0)).toBe(1000);
    expect(gate.heldSince(700)).toBe(300);
    gate.hold(1000);
    t = 2200;
    gate.hold(1000);
    t = 5000;
    expect(gate.heldSince(0)).toBe(2200);
    expect(gate.heldSince(3000)).toBe(200);
  });

  it('opens an event stream again after a 429, waiting the policy, and gives up after its attempts', async () => {
    const waits: number[] = [];
    const statuses = [429, 429, 200];
    let opened = 0;
    const session = await openRetried(
      async () => {
        const status = statuses[opened++] ?? 200;
        return { isStream: status === 200, status, close: async () => undefined };
      },
      (s) => ({ status: s.status, headers: { 'retry-after': '1' } }),
      { sleep: async (ms) => void waits.push(ms), random: () => 0 },
    );
    expect(session.status).toBe(200);
    expect(waits).toEqual([1000, 1000]);
    let tries = 0;
    const refused = await openRetried(
      async () => ({ isStream: false, status: 429, n: ++tries, close: async () => undefined }),
      () => ({ status: 429, headers: {} }),
      { sleep: async () => undefined, random: () => 0 },
    );
    expect(refused.n).toBe(4);
  });
});
