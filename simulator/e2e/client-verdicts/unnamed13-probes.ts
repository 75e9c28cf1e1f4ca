import { CURRENT_VERSION } from '../../contract/versions.ts';
import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 13, probes at the edges: webhook registrations retried, a body whose array order changes between
 * processes, a queue redelivering a 429'd create at once, public calls without a version, a stream handed
 * over make-before-break, and a token swapped to dodge a 429. Each is as its sentence says.
 */
const HOOK = { url: 'http://127.0.0.1:9/hooks/orders', events: ['order.created', 'order.paid'] };

/** A held registration is dropped: the client sees no answer (status 0). */
const registerDropped = async (t: Parameters<FaultyClient['run']>[0], a: ReturnType<typeof auth>, key: string) => {
  fault(t, { kind: 'commit_then_fail', route: 'createWebhook', failWith: 'drop', count: 1 });
  const first = await api(t, a, 'POST', '/webhooks', { body: HOOK, key });
  if (first.status !== 0) throw new Error(`answered ${first.status}`);
};

export const WELL_BEHAVED_PROBES_13: UnnamedClient2[] = [
  // "The signing key is issued exactly once in the response and must be stored at once" and "the same key
  // with the same content returns the same response again": a registration whose answer was lost is sent
  // again with its key, and the replay is the one response that carries the key.
  {
    does: 'registers a webhook receiver whose answer is lost (connection dropped) and sends the registration again with its key after 700 ms',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const key = 'hook-register-orders-5c1e';
      await registerDropped(t, a, key);
      await sleeper(t)(700);
      const again = ok('replay', await api(t, a, 'POST', '/webhooks', { body: HOOK, key }));
      if (again.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // "Public endpoints (no authentication): GET /api/public/v1, GET /api/public/v1/openapi.json, GET
  // /api/public/v1/stream" and "Sample calls send a header Service-Version": a status page in the browser
  // reads the public endpoints with no token and no Service-Version; its backend calls with both.
  {
    does: 'is a status page reading the public self-description, OpenAPI document and stream from the browser (Origin, no token, no Service-Version) beside its backend’s versioned calls',
    pass: ['version.service-version-sent', 'auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const origin = 'https://status.harbour.example';
      for (const path of ['', '/openapi.json']) {
        const res = await t.fetch(`${t.baseUrl}/api/public/v1${path}`, { headers: { origin } });
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        await res.arrayBuffer();
      }
      await readStream(t, undefined, { idleMs: 300, headers: { origin } });
      ok('backend', await api(t, a, 'GET', '/connections'));
    },
  },
  // "resumes without gaps": during a deploy the new consumer (own token) opens its stream with the old
  // one's last number before the old one closes (make-before-break); both see the next message once each.
  {
    does: 'hands its stream over make-before-break: the new pod (own token) opens with the old pod’s last number read, then the old pod closes',
    pass: [],
    async run(t) {
      const old = auth(t);
      let lastOld: number | undefined;
      const oldReading = readStream(t, old, {
        idleMs: 1_200,
        onOpen: () => publish(t, old.tenant, 3),
      }).then((ids) => (lastOld = ids.at(-1)));
      await new Promise((resolve) => setTimeout(resolve, 400));
      const fresh = auth(t);
      const newIds = await readStream(t, fresh, { cursor: 3, idleMs: 400, onOpen: () => publish(t, fresh.tenant, 1) });
      await oldReading;
      if (lastOld !== 4 || newIds[0] !== 4) throw new Error(`old read to ${lastOld}, new from ${newIds[0]}`);
      await sleepOn(t, 500);
      void CURRENT_VERSION;
    },
  },
];

export const MISBEHAVING_PROBES_13: FaultyClient[] = [
  // "Modifying calls are repeat-safe through idempotency keys": a registration whose answer was lost is
  // sent again under a new key: a second receiver, and a second signing key.
  {
    does: 'registers a webhook receiver whose answer is lost and sends the registration again under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1381);
      await registerDropped(t, a, `hook-${uuid(random)}`);
      await sleeper(t)(700);
      ok('again', await api(t, a, 'POST', '/webhooks', { body: HOOK, key: `hook-${uuid(random)}` }));
    },
  },
  // "The same key with different content yields idempotency_conflict": a Python worker builds capabilities
  // from a set; the retry runs in a new process (another PYTHONHASHSEED) and lists them in another order.
  {
    does: 'is a Python worker building capabilities from a set, so its retry in a new process (other PYTHONHASHSEED) sends them in another order under the same key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const key = 'py-set-create-77aa01';
      const capabilities = ['orders.read', 'payments.refund', 'menu.write'];
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = (caps: string[]) => ({ ...CONNECTION, scopeLabel: 'Hashseed Hall', capabilities: caps });
      const first = await createWith(t, auth(t), body(capabilities), key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(600);
      const again = await createWith(t, auth(t), body([...capabilities].reverse()), key);
      if (again.status !== 200 && again.status !== 409) throw new Error(`retry answered ${again.status}`);
    },
  },
  // "respect the wait time of the response": a RabbitMQ consumer nacks (requeue) a create refused 429
  // (Retry-After: 3); the broker hands it at once to a sibling consumer (own token), which sends it with
  // the message's key 50 ms later.
  {
    does: 'nacks a create refused 429 (Retry-After: 3) back to RabbitMQ, whose sibling consumer (own token) sends it again with the message key 50 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Rabbit Requeue Rotisserie' };
      const key = 'amqp-msg-4411-create';
      const one = auth(t);
      const two = auth(t);
      ok('warm-up 1', await api(t, one, 'GET', '/capabilities'));
      ok('warm-up 2', await api(t, two, 'GET', '/capabilities'));
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const first = await createWith(t, one, body, key);
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(50);
      ok('redelivered', await createWith(t, two, body, key));
      ok('worker 1 goes on', await api(t, one, 'GET', '/capabilities'));
    },
  },
  // "respect the wait time of the response" and "Tokens are short-lived and are renewed, not extended":
  // a client that takes a 429 for a limit on its token, fetches a fresh one and retries at once.
  {
    does: 'fetches a fresh token after every 429 to dodge the per-access limit and retries at once, on three reads',
    fails: ['retry.respects-retry-after', 'auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 3_600);
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        const route =
          path === '/providers' ? 'listProviders' : path === '/connectors' ? 'listConnectors' : 'listCapabilities';
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 5, count: 1 });
        const r = await api(t, a, 'GET', path);
        if (r.status !== 429) throw new Error(`answered ${r.status}`);
        a = auth(t, undefined, 3_600);
        await sleep(100);
        ok(path, await api(t, a, 'GET', path));
        await sleep(1_000);
      }
    },
  },
];

/** Pinned with today's verdict (see the comment inside). */
export const AMBIGUOUS_PROBES_13: AmbiguousClient8[] = [
  // "Modifying calls are repeat-safe through idempotency keys: the same key with the same content returns
  // the same response again": a single SQS worker whose delete (ack) of a message failed after the create
  // succeeded gets the message back when its visibility timeout (30 s) ends, and sends the create again
  // with the message's key; the replay tells it the work is done. The rules exempt exactly this
  // redelivery when another worker gets it (README: "a queue's at-least-once redelivery"), not when the
  // only worker does. Pinned as ambiguous with today's verdict.
  {
    does: 'is the only SQS worker of its queue: its ack failed after a successful create, and the redelivery 30 s later sends the create again with the message key (replayed)',
    why: 'a redelivery by the only worker, 30 s after a success, looks like a client sending a succeeded create again; the rules excuse it only when another worker (token) sends it',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Ack Lost Lounge' };
      ok('create', await createWith(t, a, body, 'sqs-msg-9921-create'));
      await sleeper(t)(30_000);
      const again = ok('redelivery', await createWith(t, a, body, 'sqs-msg-9921-create'));
      if (again.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
];
