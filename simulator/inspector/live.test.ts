import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../app/sandbox.ts';
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
    stop();
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
});
