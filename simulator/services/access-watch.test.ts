import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createManualScheduler } from '../lib/scheduler.ts';
import { createTimeline } from '../lib/timeline.ts';
import { createAccessWatch, type AccessBound, type AccessEndReason } from './access-watch.ts';
import { createClientStore } from '../state/clients.ts';
import { createTokenStore } from '../state/token-store.ts';
import { atOnce } from './at-once.ts';
import { networkLike } from '../test-support/network-like.ts';
import { createClientService } from './client-service.ts';
import { createTokenService } from './token-service.ts';

function setup() {
  const clock = createClock(() => 1_000_000);
  const timeline = createTimeline(clock, createManualScheduler(clock));
  const tokens = createTokenService({ repository: createTokenStore(), clock, defaultTtlSeconds: 60 });
  const clients = createClientService({ repository: createClientStore(), clients: [] });
  const watch = createAccessWatch({ tokens, timeline, clients }, (why) => `ended: ${why}`);
  const grant: Parameters<typeof tokens.issue>[0] = {
    clientId: 'c',
    tenants: ['t'],
    scopes: ['stream:read'],
    environment: 'sandbox',
  };
  const member = () => {
    const closed: [AccessEndReason, string][] = [];
    const m: AccessBound = { close: (reason, message) => void closed.push([reason, message]) };
    return { m, closed };
  };
  return { clock, timeline, tokens, watch, grant, member };
}

describe('access watch (one per token, shared by its streams)', () => {
  it('closes every stream of a revoked token once, with the reason and its message, and forgets the token', () => {
    const { tokens, timeline, watch, grant, member } = setup();
    const { token, record } = atOnce(tokens.issue(grant), 'test');
    const [a, b] = [member(), member()];
    watch.group(record).add(a.m);
    watch.group(record).add(b.m);
    // One timeline task for the token, however many streams use it.
    expect(timeline.size()).toBe(1);
    expect(watch.size()).toBe(1);
    tokens.revoke(token);
    expect(a.closed).toEqual([['token_revoked', 'ended: token_revoked']]);
    expect(b.closed).toEqual([['token_revoked', 'ended: token_revoked']]);
    expect(watch.size()).toBe(0);
  });

  it('closes on the sandbox clock when the token expires, and leaves other tokens alone', () => {
    const { clock, tokens, watch, grant, member } = setup();
    const first = atOnce(tokens.issue(grant), 'test').record;
    clock.advance(30_000);
    const second = atOnce(tokens.issue(grant), 'test').record;
    const [a, b] = [member(), member()];
    watch.group(first).add(a.m);
    watch.group(second).add(b.m);
    clock.advance(31_000);
    expect(a.closed.map(([r]) => r)).toEqual(['token_expired']);
    expect(b.closed).toEqual([]);
    clock.advance(30_000);
    expect(b.closed.map(([r]) => r)).toEqual(['token_expired']);
  });

  it('stops watching when the last stream leaves; a group handed out but never joined leaves nothing', () => {
    const { tokens, timeline, watch, grant, member } = setup();
    const { token, record } = atOnce(tokens.issue(grant), 'test');
    watch.group(record);
    expect(watch.size()).toBe(0);
    const [a, b] = [member(), member()];
    // Two groups fetched before either was joined still act as one.
    const g1 = watch.group(record);
    const g2 = watch.group(record);
    g1.add(a.m);
    g2.add(b.m);
    expect(watch.size()).toBe(1);
    g2.delete(b.m);
    expect(watch.size()).toBe(1);
    g1.delete(a.m);
    expect(watch.size()).toBe(0);
    tokens.revoke(token);
    expect(a.closed).toEqual([]);
    expect(b.closed).toEqual([]);
    // The cancelled expiry task is dropped by the timeline, not fired.
    expect(timeline.size()).toBeLessThanOrEqual(1);
  });

  it("closes at the client's access expiry, read through the client service even when it answers later", async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const clock = createClock(() => now);
    const timeline = createTimeline(clock, createManualScheduler(clock));
    const tokens = createTokenService({ repository: networkLike(createTokenStore()), clock });
    const clients = createClientService({
      repository: networkLike(createClientStore()),
      clients: [
        {
          id: 'c',
          name: 'C',
          type: 'public',
          tenants: ['t'],
          scopes: ['stream:read'],
          environment: 'sandbox',
          purpose: 'tests',
          owner: 'qa',
          expiresAt: '2030-01-01T00:01:00Z',
        },
      ],
    });
    const watch = createAccessWatch({ tokens, timeline, clients }, (why) => `ended: ${why}`);
    const { token, record } = await tokens.issue({
      clientId: 'c',
      tenants: ['t'],
      scopes: ['stream:read'],
      environment: 'sandbox',
    });
    const closed: AccessEndReason[] = [];
    watch.group(record).add({ close: (reason) => void closed.push(reason) });
    // The client's expiry is armed once its record arrives.
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(60_000);
    expect(closed).toEqual(['access_expired']);
    await tokens.revoke(token);
    expect(closed).toEqual(['access_expired']);
  });
});
