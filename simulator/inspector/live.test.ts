import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
import { drainedTo, stopStream } from '../core/stream-stop.ts';
import type { DrainTarget } from '../core/types.ts';
import { createLiveSource } from './live.ts';

let sandbox: Sandbox;
afterEach(() => sandbox?.state.close());

describe('inspector live stream', () => {
  it('carries each journaled call, each domain event and a tick, and lets go of everything when closed', async () => {
    sandbox = createSandbox({ activationDelayMs: 0 });
    const chunks: string[] = [];
    const stop = createLiveSource(sandbox.state, sandbox.inspector!.journal, 20).open({
      write: (c) => chunks.push(c) > 0,
      end: () => undefined,
    });
    await sandbox.core.handle({ method: 'GET', path: '/api/public/v1', query: {}, headers: {} });
    await sandbox.state.connections.create(
      {
        tenant: 'harbour-kitchens',
        connectorId: sandbox.state.fixtures.connectors[0]!.id,
        environment: 'sandbox',
        scopeLabel: 'x',
        capabilities: [],
      },
      { actor: 'harbour-backend', requestId: 'req_live' },
    );
    await new Promise((r) => setTimeout(r, 60));
    stopStream(stop);
    const text = chunks.join('');
    expect(text.startsWith('retry: 1000\n\n')).toBe(true);
    expect(text).toMatch(/event: journal\ndata: \{"seq":1,[^\n]*"path":"\/api\/public\/v1","status":200/);
    expect(text).toMatch(/event: change\ndata: \{"type":"connection\.created","tenant":"harbour-kitchens"/);
    expect(text).toMatch(/event: tick\ndata: \{"now":/);
    const before = chunks.length;
    await sandbox.core.handle({ method: 'GET', path: '/api/public/v1', query: {}, headers: {} });
    await new Promise((r) => setTimeout(r, 60));
    expect(chunks.length).toBe(before);
  });

  it('ends the stream of a page that stopped reading once it is maxBehindBytes behind (attacks round 5)', async () => {
    sandbox = createSandbox();
    const journal = sandbox.inspector?.journal;
    if (!journal) throw new Error('the inspector is on by default');
    let written = 0;
    let ended = 0;
    let drain: (() => void) | undefined;
    const sink = {
      // Full from the first write: like a socket whose reader went away without closing it.
      write: (c: string) => {
        written += c.length;
        return false;
      },
      end: () => {
        ended++;
      },
      onDrain: (target: DrainTarget) => {
        drain = () => drainedTo(target);
      },
    };
    createLiveSource(sandbox.state, journal, 60_000, 3000).open(sink);
    const call = () => sandbox.core.handle({ method: 'GET', path: '/api/public/v1', query: {}, headers: {} });
    let calls = 0;
    while (written < 2000) {
      await call();
      calls++;
    }
    drain?.(); // a drain in time starts the count again: twice as many calls would be over the bound without it
    for (let i = 0; i < calls; i++) await call();
    expect(ended).toBe(0);
    for (let i = 0; i < 100; i++) await call();
    expect(ended).toBe(1);
    const after = written;
    for (let i = 0; i < 20; i++) await call();
    expect(written).toBe(after); // unsubscribed: nothing more is formatted or written
    expect(after).toBeLessThan(3000 * 3);
  });
});
