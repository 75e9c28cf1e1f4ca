import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoreHandler, PlainRequest, PlainResponse } from '../core/types.ts';
import { createMswHandlers } from './msw.ts';

// What a partner's test pays per call through the MSW handlers (issue 23 item 18): msw 3 runs every
// fetch through undici over an emulated socket, so a call that opens a connection pays for one (and
// for https a new TLS context). Answers without a length, and answers given before undici could free
// the connection, made every call open one.
const BASE = 'https://msw-adapter.test';

/** A core standing in for the simulator: counts the calls it holds at once. */
function countingCore() {
  let inFlight = 0;
  const seen = { maxInFlight: 0 };
  const core: CoreHandler = {
    async handle(req: PlainRequest): Promise<PlainResponse> {
      inFlight++;
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
      // A few awaits, as the simulator's pipeline has: calls handed over together interleave here.
      for (let i = 0; i < 3; i++) await Promise.resolve();
      inFlight--;
      if (req.method === 'HEAD') return { status: 200, headers: { 'content-length': '7' } };
      return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `été ${req.path}` };
    },
    reject: (code, detail) => ({ status: 400, headers: {}, body: `${code}: ${detail}` }),
  };
  return { core, seen };
}

describe('MSW handlers: connections and lengths', () => {
  const { core, seen } = countingCore();
  const server = setupServer(...createMswHandlers(core, [BASE]));
  let connections = 0;
  const onConnected = () => connections++;
  beforeAll(() => {
    server.listen({ onUnhandledFrame: 'error' });
    subscribe('undici:client:connected', onConnected);
  });
  afterAll(() => {
    unsubscribe('undici:client:connected', onConnected);
    server.close();
  });

  it('answers carry their length in bytes, as over node:http; a HEAD keeps the GET length the core set', async () => {
    const res = await fetch(`${BASE}/a`);
    expect(await res.text()).toBe('été /a');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength('été /a')));
    const head = await fetch(`${BASE}/a`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe('7');
  });

  it('calls one after another reuse their connections instead of opening one each', async () => {
    const before = connections;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${BASE}/seq/${i}`);
      expect(await res.text()).toBe(`été /seq/${i}`);
    }
    // undici frees a connection a turn after its answer, so two alternate; one per call before.
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it('calls sent at once, on kept-alive connections, still reach the core together', async () => {
    seen.maxInFlight = 0;
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => fetch(`${BASE}/at-once/${i}`)));
    expect(await Promise.all(answers.map((r) => r.text()))).toEqual(
      Array.from({ length: 5 }, (_, i) => `été /at-once/${i}`),
    );
    expect(seen.maxInFlight).toBe(5);
  });

  it("answers while the test's fake timers are installed (the turn it waits is not the global setImmediate)", async () => {
    vi.useFakeTimers();
    try {
      const res = await fetch(`${BASE}/fake-timers`);
      expect(await res.text()).toBe('été /fake-timers');
    } finally {
      vi.useRealTimers();
    }
  });
});
