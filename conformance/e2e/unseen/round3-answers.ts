import { createHash } from 'node:crypto';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, LISTS, P } from './proxy-helpers.ts';

/**
 * Round 3 of the unseen violations, part 2: answers, streams and deliveries that are wrong only under
 * some condition (an empty list, a filter, another tenant, a later state, a second page, live messages,
 * a redelivery) or in a way no earlier list tried (units, charsets, the signing key, channels scanned).
 */
/** Per stream: how many chunks it has sent. */
const streams = new WeakMap<ProxyCall, { chunks: number }>();
const opened = (c: ProxyCall) => {
  const s = streams.get(c) ?? { chunks: 0 };
  streams.set(c, s);
  return s;
};
const deliveredIds = new Set<string>();

export const ROUND3_ANSWERS: UnseenViolation[] = [
  {
    name: 'empty-list-count-one',
    statement: 'GET lists: data: count (integer) of the list (an empty list counts 0)',
    answer(c, a) {
      const list = LISTS[c.path];
      if (c.method === 'GET' && list && Array.isArray(a.json.data?.[list]) && a.json.data[list].length === 0)
        a.json.data.count = 1;
    },
  },
  {
    name: 'filtered-providers-lose-summary',
    statement: 'Provider: summary (string), on filtered lists too',
    answer(c, a) {
      if (c.path === P('/providers') && c.search.has('category'))
        for (const p of a.json.data?.providers ?? []) delete p.summary;
    },
  },
  {
    name: 'capability-filter-adds-one',
    statement: 'GET /connectors: capability restricts the list to connectors offering it',
    answer(c, a) {
      if (c.path !== P('/connectors') || !Array.isArray(a.json.data?.connectors)) return;
      const wanted = c.search.get('capability');
      if (!wanted) return c.memory.set('connectors', a.json.data.connectors);
      const all = (c.memory.get('connectors') ?? []) as { capabilities?: string[] }[];
      const extra = all.find((x) => !x.capabilities?.includes(wanted));
      if (extra) {
        a.json.data.connectors.push(extra);
        a.json.data.count += 1;
      }
    },
  },
  {
    name: 'listing-duplicates-an-entry',
    statement: 'GET /connections: connections of the tenant (each once; count as listed)',
    answer(c, a) {
      const list = a.json.data?.connections;
      if (c.method === 'GET' && c.path === P('/connections') && Array.isArray(list) && list.length >= 2) {
        list.push(list[0]);
        a.json.data.count = list.length;
      }
    },
  },
  {
    name: 'other-tenant-count-zero',
    statement: 'GET /connections: data: count (integer), for every tenant',
    answer(c, a) {
      const own = home(c);
      if (c.method === 'GET' && c.path === P('/connections') && own && c.headers['x-service-tenant'] !== own)
        if (a.json.data) a.json.data.count = 0;
    },
  },
  {
    name: 'listed-state-stale',
    statement: 'Connection: state (the connection\'s current state; "delivers state changes")',
    answer(c, a) {
      if (c.method !== 'GET' || c.path !== P('/connections')) return;
      for (const con of a.json.data?.connections ?? []) {
        const first = c.memory.get(`state:${con.id}`);
        if (first === undefined) c.memory.set(`state:${con.id}`, con.state);
        else con.state = first;
      }
    },
  },
  {
    name: 'created-at-after-answer',
    statement: 'Connection: createdAt (date-time of the creation this call made, not later than meta.at)',
    answer(c, a) {
      if (isCreate(c) && a.status === 200 && a.json.data?.createdAt)
        a.json.data.createdAt = new Date(Date.parse(a.json.data.createdAt) + 3_600_000).toISOString();
    },
  },
  {
    name: 'decision-critical-disagrees-with-catalog',
    statement: "CapabilityDecision: critical (the capability's, as in the catalog)",
    answer(c, a) {
      const d = a.json.data?.decision;
      if (c.method === 'POST' && c.path === P('/capabilities') && d) d.critical = !d.critical;
    },
  },
  {
    name: 'connection-capability-flag-disagrees',
    statement: "Connection: capabilities: each entry idempotencyRequired (the capability's, as in the catalog)",
    answer(c, a) {
      if (isCreate(c) && a.status === 200)
        for (const cap of a.json.data?.capabilities ?? []) cap.idempotencyRequired = !cap.idempotencyRequired;
    },
  },
  {
    name: 'key-expires-in-the-past',
    statement: 'Idempotency key result: expiresAt (the expiry of a key issued now)',
    answer(c, a) {
      if (c.path === P('/idempotency-keys') && a.json.data?.expiresAt)
        a.json.data.expiresAt = new Date(Date.now() - 86_400_000).toISOString();
    },
  },
  {
    name: 'expires-at-epoch-string',
    statement: 'Idempotency key result: expiresAt (string, date-time)',
    answer(c, a) {
      if (c.path === P('/idempotency-keys') && a.json.data?.expiresAt)
        a.json.data.expiresAt = String(Math.floor(Date.parse(a.json.data.expiresAt) / 1000));
    },
  },
  {
    name: 'retry-after-milliseconds',
    statement: 'Limits: Retry-After (recommended wait in seconds)',
    answer(_c, a) {
      const s = Number(a.headers['retry-after']);
      if (a.status === 429 && s >= 0) a.headers['retry-after'] = String(Math.max(1, s) * 1000);
    },
  },
  {
    name: 'json-declared-latin1',
    statement: 'Success envelope (every JSON success response): JSON text (UTF-8), not another charset',
    answer(_c, a) {
      if ((a.headers['content-type'] ?? '').includes('json'))
        a.headers['content-type'] = 'application/json; charset=iso-8859-1';
    },
  },
  {
    name: 'audit-older-page-proof-forged',
    statement: 'GET /audit-log: a proof of integrity (for every page, not only the newest)',
    answer(c, a) {
      const proof = a.json.data?.proof;
      if (c.path === P('/audit-log') && proof && [...c.search.keys()].some((k) => k !== 'limit'))
        proof.anchorPrevHash = createHash('sha256').update('forged').digest('hex');
    },
  },
  {
    name: 'live-messages-skip-numbers',
    statement: 'Status stream: every message carries a consecutive number (live after the backlog too)',
    stream(c, lines) {
      // The first chunk of a stream is its backlog (or its opening); every later one is live.
      if (opened(c).chunks++ === 0) return lines;
      return lines.replace(/^id: ?(\d+)/gm, (_m, n: string) => `id: ${Number(n) + 1}`);
    },
  },
  {
    name: 'backlog-pairs-swapped',
    statement: 'Status stream: every message carries a consecutive number (in order)',
    stream(_c, lines) {
      const blocks = lines.split(/\n\n/);
      const numbered = blocks.map((b, i) => (/^id: ?\d+/m.test(b) ? i : -1)).filter((i) => i >= 0);
      if (numbered.length < 2) return lines;
      const [i, j] = numbered as [number, number];
      [blocks[i], blocks[j]] = [blocks[j] as string, blocks[i] as string];
      return blocks.join('\n\n');
    },
  },
  {
    name: 'stream-comment-echoes-token',
    statement: "Errors: no tokens are sent along (Authentication: credentials stay in the partner's backend)",
    stream(c, lines) {
      const token = /^Bearer (.+)$/i.exec(c.headers.authorization ?? '')?.[1];
      return token ? `: session ${token}\n${lines}` : lines;
    },
  },
  {
    name: 'delivery-body-trailing-newline',
    statement: 'Webhooks: the signature is over the unchanged raw request body',
    deliver(d) {
      d.body = `${d.body}\n`;
    },
  },
  {
    name: 'delivery-unsubscribed-event',
    statement: 'Webhooks: a receiver is registered giving a list of event names (it gets those events)',
    deliver(d, resign) {
      const json = JSON.parse(d.body) as Record<string, unknown>;
      const names = new Set<unknown>();
      for (const k of ['type', 'event', 'name'])
        if (typeof json[k] === 'string') {
          names.add(json[k]);
          json[k] = 'order.paid';
        }
      d.body = JSON.stringify(json);
      // A header naming the event (its name is not shown) says the same.
      for (const [k, v] of Object.entries(d.headers)) if (names.has(v)) d.headers[k] = 'order.paid';
      for (const [k, v] of Object.entries(d.headers)) if (/^t=\d+,v1=/.test(v)) d.headers[k] = resign(d.body);
    },
  },
  {
    name: 'delivery-debug-header',
    statement: 'Errors: no internal details (any message the service sends, deliveries too)',
    deliver(d) {
      d.headers['x-debug-upstream'] = 'worker-3.ncs-internal.svc.cluster.local:8443 (pool=deliveries-pg)';
    },
  },
  {
    name: 'signature-keyed-with-key-hash',
    statement: 'Webhooks: an HMAC with SHA-256, keyed with the signing key (as issued)',
    sign: (body, secret, t) => signWebhook(body, createHash('sha256').update(secret).digest('hex'), t),
  },
  {
    name: 'redelivery-stale-timestamp',
    statement: 'Webhooks: deliveries can be triggered again (signed at the time of sending; 300 s window)',
    deliver(d, resign) {
      const id = /"id":"([^"]+)"/.exec(d.body)?.[1];
      if (!id) return;
      const again = deliveredIds.has(id);
      deliveredIds.add(id);
      if (!again) return;
      for (const [k, v] of Object.entries(d.headers))
        if (/^t=\d+,v1=/.test(v)) d.headers[k] = resign(d.body, Math.floor(Date.now() / 1000) - 900);
    },
  },
];
