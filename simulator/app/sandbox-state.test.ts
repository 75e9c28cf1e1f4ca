// The composition root's own answers (snapshot, reset) take every service's MaybePromise as it comes:
// a service answering later (a repository across the network) is waited for, never serialised as {}.
import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import type { ReceiverService } from '../services/receiver-service.ts';
import { loadFixtures } from './fixtures-loader.ts';
import { createSandboxState } from './sandbox-state.ts';

const later = <T>(value: T) => new Promise<T>((resolve) => setImmediate(() => resolve(value)));

const stateOf = () =>
  createSandboxState({
    fixtures: loadFixtures(),
    environment: 'sandbox',
    tokenTtlSeconds: 900,
    activationDelayMs: 0,
    clock: createClock(() => Date.UTC(2026, 10, 26, 2, 0, 0)),
    rateLimit: false,
    webhooks: { fetch: async () => new Response(null, { status: 204 }), jitterRatio: 0 },
  });

/** The receivers' service answering every call a turn later, as over a repository across the network. */
function receiversLater(inner: ReceiverService): ReceiverService {
  return {
    ...inner,
    count: () => later(inner.count()).then((n) => n),
    clear: () => later(undefined).then(() => inner.clear()),
  };
}

describe('sandbox state over services answering later', () => {
  it('snapshot counts the receivers a later answer gives, not the promise', async () => {
    const state = stateOf();
    await state.receivers.create('harbour-kitchens', {
      url: 'http://127.0.0.1:9/hook',
      events: ['connection.created'],
    });
    const atOnce = JSON.parse(await state.snapshot()) as { receivers: unknown };
    state.receivers = receiversLater(state.receivers);
    const viaPromise = JSON.parse(await state.snapshot()) as { receivers: unknown };
    expect(atOnce.receivers).toBe(1);
    expect(viaPromise.receivers).toBe(1);
    await state.close();
  });

  it('reset waits until the receivers are cleared', async () => {
    const state = stateOf();
    await state.receivers.create('harbour-kitchens', {
      url: 'http://127.0.0.1:9/hook',
      events: ['connection.created'],
    });
    const inner = state.receivers;
    state.receivers = receiversLater(inner);
    await state.reset();
    expect(inner.count()).toBe(0);
    await state.close();
  });
});
