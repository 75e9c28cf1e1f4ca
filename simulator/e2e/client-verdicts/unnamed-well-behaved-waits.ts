import { api, auth, create, draws, fault, guidance, type Reply, type UnnamedClient, withWaits } from './unnamed-kit.ts';

/** Well-behaved clients with unusual but legal waits: jitter of every kind, Retry-After to the ms and beyond. */
export const WAITING_CLIENTS: UnnamedClient[] = [
  {
    does: 'backs off exponentially with full jitter (a shorter wait may follow a longer one)',
    pass: ['retry.only-after-failure', 'retry.attempt-limit', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const full = (r: () => number) => [0, 1, 2].map((n) => () => Math.floor(r() * 300 * 2 ** n));
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      await withWaits(t, () => api(t, a, 'GET', '/providers'), full(draws([0.9, 0.2, 0.8])));
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      await withWaits(t, () => api(t, a, 'GET', '/providers'), full(draws([0.3, 0.9, 0.1])));
    },
  },
  {
    does: 'backs off with decorrelated jitter (min(cap, random(base, 3 x previous)))',
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const r = draws([0.9, 0.1, 0.5]);
      let prev = 100;
      const next = () => {
        prev = Math.min(2_000, Math.floor(100 + r() * (prev * 3 - 100)));
        return prev;
      };
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      await withWaits(t, () => api(t, a, 'GET', '/capabilities'), [next, next, next]);
    },
  },
  {
    does: 'retries a create after two 500s with the same key and the guidance waits',
    pass: ['retry.same-key-and-content', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const g = guidance(draws([0.4, 0.8]));
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      await withWaits(t, () => create(t, a, 'five-hundred-0001'), [g(0), g(1)]);
    },
  },
  {
    does: 'waits exactly Retry-After after two 429s in a row',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 2 });
      const wait = (r: Reply) => r.retryAfterMs;
      await withWaits(t, () => api(t, a, 'GET', '/providers'), [wait, wait, wait]);
    },
  },
  {
    does: 'waits out a gateway 503 with Retry-After, then a 429, on one create with one key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const wait = (r: Reply) => Math.max(r.retryAfterMs, 300);
      await withWaits(t, () => create(t, a, 'gateway-503-0001'), [wait, wait]);
    },
  },
  {
    does: 'waits Retry-After plus a draw of 100-250 ms after each of two 429s',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const r = draws([0.5, 0.6]);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 1, count: 2 });
      const wait = (x: Reply) => x.retryAfterMs + 100 + Math.floor(r() * 150);
      await withWaits(t, () => api(t, a, 'GET', '/connections'), [wait, wait]);
    },
  },
  {
    does: 'grows its waits linearly (250, 500, 750 ms plus a draw): growing, though not doubling',
    pass: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const r = draws([0.1, 0.9, 0.5, 0.9, 0.1, 0]);
      for (const route of ['listProviders', 'listConnectors'] as const) {
        fault(t, { kind: 'internal', route, count: 3 });
        const lin = [1, 2, 3].map((n) => () => 250 * n + Math.floor(r() * 100));
        await withWaits(t, () => api(t, a, 'GET', route === 'listProviders' ? '/providers' : '/connectors'), lin);
      }
    },
  },
];
