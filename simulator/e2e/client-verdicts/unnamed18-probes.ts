import { createHmac, timingSafeEqual } from 'node:crypto';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import type { ReceiverKind } from './unnamed-receivers.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { eventBridge, haproxyLua } from './unnamed18-kit.ts';

/**
 * Round 18 probes: clients and receivers at the edges of what the rules can see (nested retry loops, a token
 * renewed in the middle of a retry sequence, retries spread over both addresses, a pool of two tokens in one
 * process, a stream opened by a browser navigation, a receiver's tolerance beyond the 300 s window or an
 * empty fallback key). Four fail today on purpose (the token pool twice, the navigation, the empty key).
 * A cache-busting query or a stamped body field cannot hide a retry: the service refuses unknown fields (400).
 */
export const MISBEHAVING_PROBES_18: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": an EventBridge connection renewing its 10 s token (near
  // expiry) in the middle of one invocation's retries: six attempts of one create under one key, two tokens.
  {
    does: 'is an EventBridge API destination whose connection renews a near-expiry token between the 2nd and 3rd attempts, creating under one key six times through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const first = auth(t, undefined, 8);
      const second = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const key = `evb-${uuid(seeded(1881))}`;
      const body = { ...CONNECTION, scopeLabel: 'Renewal Ramen Bar' };
      const wait = eventBridge(seeded(1882));
      const send = (n: number) => createWith(t, n < 2 ? first : second, body, key);
      ok('create', await loop(sleeper(t), send, (n) => Math.min(wait(n), n === 0 ? 2_000 : 60_000), 5));
    },
  },
  // "A sample client makes up to 4 attempts": a HAProxy Lua action failing over between the main and the
  // alternate address on each attempt ("the same interface is also offered under a second main-domain
  // address"), six attempts of one create under one key.
  {
    does: 'is a HAProxy Lua action alternating the main and alternate address on each attempt, one create under one key six times through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const alt = { ...t, baseUrl: t.altBaseUrl };
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const body = { ...CONNECTION, scopeLabel: 'Failover Falafel' };
      const key = `haproxy-${uuid(seeded(1883))}`;
      const send = (n: number) => api(n % 2 ? alt : t, a, 'POST', '/connections', { body, key });
      ok('create', await loop(sleeper(t), send, haproxyLua(seeded(1884)), 5));
    },
  },
  // "A sample client makes up to 4 attempts": a Celery task with autoretry_for (max_retries 1) around a
  // requests session mounted with urllib3 Retry(total=3): two nested loops, eight attempts of one read.
  {
    does: 'is a Celery task with autoretry_for (max_retries 1) wrapping a requests session with urllib3 Retry(total=3): one read attempted eight times through seven 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 7 });
      const inner = haproxyLua(seeded(1885));
      const once = () => loop(sleeper(t), () => get(t, a, '/connectors'), inner, 3);
      const first = await once();
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(6_000);
      ok('read', await once());
    },
  },
  // "the same key ... returns the same response again" and "up to 4 attempts": the same nesting on a create,
  // the task's retry making a new key (uuid4() in the task body): 4 attempts under one key, 4 under another.
  {
    does: 'is a Celery task whose autoretry re-runs a create (uuid4() key made in the task body) after its inner urllib3 Retry spent 4 attempts: 8 attempts under two keys',
    fails: ['retry.attempt-limit', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1886);
      fault(t, { kind: 'internal', route: 'createConnection', count: 7 });
      const body = { ...CONNECTION, scopeLabel: 'Nested Naan House' };
      const inner = haproxyLua(seeded(1887));
      const once = (key: string) => loop(sleeper(t), () => createWith(t, a, body, key), inner, 3);
      const first = await once(uuid(random));
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(6_000);
      ok('create', await once(uuid(random)));
    },
  },
  // "A sample client makes up to 4 attempts": a read retried six times by one process that renews its
  // near-expiry token (8 s) between the 3rd and 4th attempts: one process, one read, six attempts.
  {
    does: 'is a Vector http_client source renewing its near-expiry token (8 s) between the 3rd and 4th attempts of one read, six attempts through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const first = auth(t, undefined, 8);
      const second = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 5 });
      const send = (n: number) => get(t, n < 3 ? first : second, '/capabilities');
      const waits = [500, 1_100, 2_200, 4_100, 8_200];
      ok('read', await loop(sleeper(t), send, (n) => waits[n] ?? 8_200, 5));
    },
  },
  // "unauthorized (401) ... remedy: request a new access token": an Argo Events SSE EventSource holding the
  // token it started with, reconnecting every 10 s with it after it expired; each reconnect answered 401.
  {
    does: 'is an Argo Events EventSource reconnecting the stream every 10 s with the token it started with, long expired, each reconnect refused',
    fails: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(61_000);
      const refused: number[] = [];
      for (let i = 0; i < 3; i++) {
        await readStream(t, a, { cursor: last, idleMs: 600, onRefused: (status) => refused.push(status) });
        await sleeper(t)(10_000);
      }
      if (refused.join() !== '401,401,401') throw new Error(`refused ${refused}`);
    },
  },
  // "the same key with the same content": an Argo Events EventSource registering its webhook at startup
  // with a key made at startup; the answer is dropped after commit, the pod restarts (new token) and
  // registers again under a new key: the receiver is registered twice.
  {
    does: 'is an Argo Events EventSource registering its webhook with a startup-made key; the answer dropped after commit, the restarted pod (new token) registers again under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const random = seeded(1889);
      fault(t, { kind: 'commit_then_fail', route: 'createWebhook', failWith: 'drop', count: 1 });
      const body = { url: 'http://127.0.0.1:9/argo-events/hook', events: ['order.created', 'order.paid'] };
      const register = () =>
        api(t, auth(t, undefined, 3_600), 'POST', '/webhooks', { body, key: `argo-${uuid(random)}` });
      const r = await register();
      if (r.status !== 0) throw new Error(`answered ${r.status}`);
      await sleeper(t)(8_000);
      ok('registered', await register());
    },
  },
  // "Access credentials ... are never sent from a browser": a Shopify admin page opens the stream in an
  // iframe (`<iframe src=".../stream?access_token=…">`, a live log panel). A navigation sends no Origin, only
  // the browser's Sec-Fetch-* headers (navigate, iframe, cross-site), and no custom header.
  {
    does: 'is a Shopify admin page opening the stream in an iframe with its bearer token in the URL (?access_token=…): a browser navigation, Sec-Fetch-Mode navigate, no Origin',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      publish(t, a.tenant, 2);
      const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream?access_token=${encodeURIComponent(a.token)}`, {
        headers: {
          accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
          'sec-fetch-dest': 'iframe',
          'sec-fetch-mode': 'navigate',
          'sec-fetch-site': 'cross-site',
          'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15',
        },
      });
      await res.body?.cancel().catch(() => undefined);
    },
  },
];

const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const sig = (secret: string, t: string, raw: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const within = (t: string, ok: (skew: number) => boolean) =>
  /^\d+$/.test(t) && ok(Math.abs(Date.now() / 1000 - Number(t)));

export const RECEIVER_PROBES_18: ReceiverKind[] = [
  // "rejects the delivery when the difference between t and the current time exceeds 300 seconds": an
  // Argo Events webhook EventSource-style check with 30 s of clock-skew tolerance added to the window.
  {
    does: 'is a webhook handler adding 30 s of clock-skew tolerance to the window (accepts up to 330 s)',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t, (s) => s <= 330) && same(v1, sig(secret, t, raw));
    },
  },
  // The same rule read strictly: a difference of exactly 300 s is refused too (`>= 300`), one second
  // stricter than the interface's, which only asks to refuse what exceeds 300.
  {
    does: 'is a webhook handler refusing a difference of 300 s or more (>= 300, one second stricter than the rule)',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t, (s) => s < 300) && same(v1, sig(secret, t, raw));
    },
  },
  // "written as lowercase hex": a receiver that lower-cases v1 before its constant-time compare also takes
  // the correct signature written in upper case. It accepts nothing unsigned, forged or stale.
  {
    does: 'is a webhook handler lower-casing v1 before a constant-time compare (the correct signature in upper case also taken), |now - t| <= 300',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t, (s) => s <= 300) && same(v1.toLowerCase(), sig(secret, t, raw));
    },
  },
  // "keyed with the signing key": a handler supporting rotation with [current, previous] secrets, where the
  // previous one is an unset environment variable read as '' — so a delivery signed with an empty key, which
  // anyone can make, is accepted. Genuine, stale and forged deliveries are judged correctly otherwise.
  {
    does: 'is a webhook handler trying [current, previous] secrets with the previous an unset env var read as "", so an HMAC keyed with the empty string is accepted',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t, (s) => s <= 300) && [secret, ''].some((k) => same(v1, sig(k, t, raw)));
    },
  },
];

/**
 * Round 18's token pool of one process: reported as wrong verdicts, kept as ambiguous (`judged`: today's
 * verdict). Telling one process from two pods by a shared keep-alive connection failed the rounds' pods that
 * share the test runner's connection pool, as pods behind a pooling proxy would.
 */
export const AMBIGUOUS_PROBES_18: AmbiguousClient8[] = [
  // "respect the wait time of the response" and "Lasting high load is to be agreed beforehand instead of
  // being split up": one HAProxy Lua process holding a pool of two tokens of its client, round-robin per
  // call, sends a read refused 429 (Retry-After 5) again 200 ms later with the other token, over the same
  // keep-alive connection.
  {
    does: 'is one HAProxy Lua process with a round-robin pool of two tokens, retrying a read refused 429 (Retry-After 5) 200 ms later with the other token',
    why: '"respect the wait time of the response" and "Lasting high load is to be agreed beforehand instead of being split up": broken by one process, but two tokens in use at once are two processes to the rules (pods, a cron job beside a worker), and the connection they share is no proof of one process (a proxy or sidecar pools the connections of many pods); so the other token\'s read owes nothing',
    judged: [],
    async run(t) {
      const [one, two] = [auth(t, undefined, 3_600), auth(t, undefined, 3_600)];
      let next = 0;
      const call = (path: string) => get(t, next++ % 2 ? two : one, path);
      for (const path of ['/providers', '/connectors', '/capabilities', '/connections']) ok(path, await call(path));
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      const r = await call('/providers?category=pos');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(200);
      ok('retry', await call('/providers?category=pos'));
      ok('after', await call('/connections'));
    },
  },
  // "A sample client makes up to 4 attempts": the same token pool spreading one read's attempts over both
  // tokens: six attempts of one read by one process through five 500s, three per token.
  {
    does: 'is one HAProxy Lua process with a round-robin pool of two tokens, attempting one read six times through five 500s, alternating tokens',
    why: '"A sample client makes up to 4 attempts": six attempts by one process, but alternating tokens read as two processes of three attempts each (see the case above)',
    judged: [],
    async run(t) {
      const [one, two] = [auth(t, undefined, 3_600), auth(t, undefined, 3_600)];
      let next = 0;
      const call = (path: string) => get(t, next++ % 2 ? two : one, path);
      ok('warm', await call('/providers'));
      ok('warm', await call('/connectors'));
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 5 });
      ok('read', await loop(sleeper(t), () => call('/capabilities'), haproxyLua(seeded(1890)), 5));
    },
  },
];
