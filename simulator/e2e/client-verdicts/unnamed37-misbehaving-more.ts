import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, publish, READS, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 37, more misbehaving clients: a PureScript reader waiting the SSE `retry:` value after a 429 on the
 * stream, a Haxe reader resuming from its every-third-message checkpoint, a Chapel token task that renews
 * on its own minute tick while reads go on with the expired token, a ReScript client sending the version
 * as an ISO timestamp, Wolverine's recovery that stamps a new envelope id (and key) on the recovered create, a
 * reader whose 401 handler reopens the stream from the start URL, a poller that fast-polls at 1 s after a failure.
 */
export const MISBEHAVING_37_MORE: (FaultyClient & { options?: SandboxOptions })[] = [
  // "respect the wait time of the response": after the stream's 429 (Retry-After 3) the reader waits the
  // reconnection delay it keeps from the SSE retry: field (1 s), as EventSource does after an error.
  {
    does: 'is a PureScript Aff stream reader whose stream call is refused 429 (Retry-After 3) and which reconnects after its SSE retry: delay of 1 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: '/api/public/v1/stream', retryAfterSeconds: 3, count: 1 });
      let refused = 0;
      await readStream(t, a, { idleMs: 400, onRefused: (s) => (refused = s) });
      if (refused !== 429) throw new Error(`answered ${refused}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "resumes ... (last number read)": the Haxe reader writes its checkpoint every third message; cut after
  // five, it resumes from the checkpoint (3), reading 4 and 5 again.
  {
    does: 'is a Haxe stream reader that checkpoints every third message and, cut after five, reconnects with Last-Event-ID: 3 (its checkpoint)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 5, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 5) });
      if (ids.length !== 5) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: ids[2] ?? 0, idleMs: 400 });
    },
  },
  // "unauthorized ... remedy: request a new access token": the Chapel program renews its token in a task
  // that wakes once a minute; meanwhile its reads (other paths each) go on with the expired one.
  {
    does: 'is a Chapel program whose token task wakes once a minute to renew: after the first 401 its next reads (other paths, 10 s apart) still carry the expired token until the task wakes',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('read', await get(t, old, '/connectors'));
      await sleeper(t)(65_000);
      for (const [, path] of READS.slice(0, 3)) {
        const r = await get(t, old, path);
        if (r.status !== 401) throw new Error(`answered ${r.status}`);
        await sleeper(t)(10_000);
      }
      ok('renewed', await get(t, auth(t, undefined, 600), '/connections'));
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": the ReScript client formats
  // its pinned version with Js.Date.toISOString, a timestamp no published version is named.
  {
    does: 'is a ReScript client sending Service-Version as Js.Date.toISOString of its pinned date (2026-07-01T00:00:00.000Z)',
    fails: ['version.service-version-sent'],
    async run(t) {
      await api(t, auth(t), 'GET', '/connectors', { version: '2026-07-01T00:00:00.000Z' });
    },
  },
  // "A sibling process sending a dead pod's failed create again is a retry of it, and must carry its key":
  // the recovering node stamps the envelope a new id, and the key is the envelope id.
  {
    does: 'is Wolverine’s durable inbox whose recovering node B gives the dead node A’s envelope a new id (the key) before sending its create, 30 s after A’s 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const nodeA = auth(t);
      const nodeB = auth(t);
      ok('b reads', await get(t, nodeB, '/providers'));
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Wolverine Waffles' };
      const failed = await createWith(t, nodeA, body, 'env-0193a5c2-9a01');
      if (failed.status !== 500) throw new Error(`answered ${failed.status}`);
      await sleeper(t)(30_000);
      ok('recovered', await createWith(t, nodeB, body, 'env-0193a5c2-9b77'));
    },
  },
  // "resumes without gaps": the reconnect with the cursor meets a 401 (the token expired while cut); the
  // 401 handler builds a new EventSource from the start URL, without the last id.
  {
    does: 'is a Haxe stream reader whose reconnect with Last-Event-ID meets a 401 (its 2 s token expired while cut); its 401 handler opens a new stream from the start URL with a new token and no cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t, undefined, 2);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2) });
      await sleeper(t)(2_500);
      let refused = 0;
      await readStream(t, a, { cursor: ids.at(-1) ?? 0, onRefused: (s) => (refused = s) });
      if (refused !== 401) throw new Error(`answered ${refused}`);
      const b = auth(t, undefined, 600);
      await readStream(t, b, { idleMs: 400, onOpen: () => publish(t, b.tenant, 1) });
    },
  },
  // "growing intervals" and "up to 4 attempts": the poller reads every 10 s, but a failed poll switches it
  // to a 1 s "fast poll" until a poll succeeds: a fixed-interval retry that looks like polling.
  {
    does: 'is a Haxe poller reading /connections every 10 s that, after a failed poll, polls every 1 s until one succeeds: five 500s retried at 1 s',
    fails: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      for (let poll = 0; poll < 8; poll++) {
        if (poll === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
        ok(
          'poll',
          await loop(
            sleeper(t),
            () => get(t, a, '/connections'),
            () => 1_000,
            6,
          ),
        );
        await sleeper(t)(10_000);
      }
    },
  },
];
