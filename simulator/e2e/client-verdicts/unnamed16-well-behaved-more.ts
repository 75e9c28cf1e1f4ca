import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { sample } from './unnamed15-kit.ts';
import { nushell, ureqFullJitter } from './unnamed16-kit.ts';

/**
 * Round 16, more well-behaved clients (PowerShell, Ansible, Swift on Linux, Rust ureq, Nushell, Apache
 * HttpClient 5). Each must get no `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_MORE_16: UnnamedClient2[] = [
  // "doubles the wait ... plus a random amount up to 250 ms": a PowerShell 7 script looping over
  // Invoke-RestMethod -SkipHttpErrorCheck, `Start-Sleep -Milliseconds (500 * [math]::Pow(2, $i) + (Get-Random -Maximum 250))`.
  {
    does: 'is a PowerShell 7 script looping Invoke-RestMethod -SkipHttpErrorCheck with Start-Sleep 500 * 2^i + Get-Random -Maximum 250, three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: sample(seeded(1611)), failures: 2, max: 3, from: 2 });
    },
  },
  // "respect the wait time of the response": PowerShell 7.4's Invoke-RestMethod -MaximumRetryCount 1
  // -RetryIntervalSec 1, which waits a 429's Retry-After (4 s) in place of its interval.
  {
    does: 'is PowerShell 7.4 Invoke-RestMethod -MaximumRetryCount 1 -RetryIntervalSec 1 waiting a 429’s Retry-After (4 s) instead of its interval',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 4, count: 1 });
      const wait = (_n: number, r: { retryAfterMs: number }) => (r.retryAfterMs > 0 ? r.retryAfterMs : 1_000);
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), wait, 1));
    },
  },
  // "the same key with the same content": an Ansible play that sets the key once with set_fact (a
  // lookup('password', '/dev/null ...') evaluated once) before the uri task with until/retries: 1, delay: 3.
  {
    does: 'is an Ansible play fixing the key with set_fact before a uri task with until/retries 1/delay 3, its create retried once after a 500 under that key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = `ansible-${uuid(seeded(1613)).replaceAll('-', '')}`;
      const body = { ...CONNECTION, scopeLabel: 'Playbook Pantry' };
      replayed(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          () => 3_000,
          1,
        ),
      );
    },
  },
  // "respect the wait time of the response": Swift Foundation's URLSession on Linux, reading
  // `response.value(forHTTPHeaderField: "Retry-After")` as Double seconds, Task.sleep of that plus a draw.
  {
    does: 'is a Swift service on Linux Foundation URLSession sleeping a 429’s Retry-After (2 s) plus a draw with Task.sleep on a capability check',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1614);
      fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 2, count: 1 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      const send = () => api(t, a, 'POST', '/capabilities', { body });
      const wait = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs + Math.floor(random() * 200) + n;
      ok('check', await loop(sleeper(t), send, wait, 3));
    },
  },
  // "resumes without gaps by sending Last-Event-ID": a Swift consumer (URLSession bytes(for:) lines) whose
  // stream ends with a restart; it waits the 503's Retry-After, then sends Last-Event-ID.
  {
    does: 'is a Swift URLSession.bytes SSE consumer waiting out a restart’s 503 (Retry-After) and resuming with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 3_000, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1) ?? 0;
      for (let attempt = 0; attempt < 4; attempt++) {
        let refused = 0;
        await readStream(t, a, {
          cursor: last,
          idleMs: 600,
          onOpen: () => publish(t, a.tenant, 1),
          onRefused: (_s, ms) => (refused = ms || 1_000),
        });
        if (!refused) return;
        await sleepOn(t, refused + 100);
      }
    },
  },
  // "Clients retry with growing intervals and slight random spread": a Rust service on ureq with a hand
  // loop, `fastrand::u64(0..cap)` under a cap doubling from 2 s (full jitter), four reads through two 500s.
  {
    does: 'is a Rust service on ureq with a hand loop drawing fastrand full jitter under a cap doubling from 2 s, four reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: ureqFullJitter(seeded(1616)),
        failures: 2,
        max: 3,
        ops: 4,
      });
    },
  },
  // "the same key with the same content": ureq with `.set("Idempotency-Key", &key)` where key is made
  // once with uuid::Uuid::new_v4(), through a gateway 503 and a 500 on the create.
  {
    does: 'is a Rust ureq client sending one Uuid::new_v4() key on a create through a gateway 503 and a 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1617);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const key = uuid(random);
      const body = { ...CONNECTION, scopeLabel: 'Ureq Udon House' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, key), ureqFullJitter(random), 3));
    },
  },
  // "growing intervals and slight random spread": a Nushell script, `http get --full --allow-errors`
  // in a loop sleeping `1sec * (2 ** $i) + (random int 0..500) * 1ms`.
  {
    does: 'is a Nushell script looping http get --allow-errors with sleep 1sec * 2**i + random int 0..500 ms, three reads each through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: nushell(seeded(1618)), failures: 3, max: 3 });
    },
  },
  // "respect the wait time of the response": Apache HttpClient 5's DefaultHttpRequestRetryStrategy
  // (maxRetries 1, defaultRetryInterval 1 s) takes a 429's Retry-After (6 s) over its own interval.
  {
    does: 'is a Java service on Apache HttpClient 5 DefaultHttpRequestRetryStrategy(1, 1 s) taking a 429’s Retry-After (6 s) over its interval',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 6, count: 1 });
      const wait = (_n: number, r: { retryAfterMs: number }) => Math.max(r.retryAfterMs, 1_000);
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), wait, 1));
    },
  },
  // "resumes ... (last number read)": a PowerShell job reading the stream with HttpClient and
  // StreamReader.ReadLine, saving the last id to a file, a scheduled task resuming from it 2 minutes later.
  {
    does: 'is a PowerShell scheduled task reading the stream, saving the last id to a file and resuming from it with ?cursor= two minutes later',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(120_000);
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
];
