import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { EARLIER, isSecond, type Rec } from './round44-common.ts';

/** Round 49, part 4: the stream across two readers and old cursors, the delivery log, redelivery, audit proof, signing. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const LOG = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries$/;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/([^/]+)\/redeliver$/;
/** The position a reader resumes from (query cursor or Last-Event-ID), if any. */
const resumeOf = (c: ProxyCall) => {
  const v = c.search.get('cursor') ?? c.headers['last-event-id'];
  return v === undefined || v === null || v === '' ? undefined : Number(v);
};
/** Drops whole numbered messages (`id:` line to blank line) for which `drop` says so; `skipping` carries over chunks. */
const dropMessages = (
  c: ProxyCall,
  lines: string,
  skipping: WeakMap<ProxyCall, boolean>,
  drop: (id: number) => boolean,
) => {
  const parts = lines.split('\n');
  const out: string[] = [];
  let skip = skipping.get(c) ?? false;
  parts.forEach((line, i) => {
    const m = /^id: (\d+)$/.exec(line);
    if (m) skip = drop(Number(m[1]));
    if (!skip) out.push(line);
    else if (line === '' && i < parts.length - 1) skip = false;
  });
  skipping.set(c, skip);
  return out.join('\n');
};
const liveSkip = new WeakMap<ProxyCall, boolean>();
const oldSkip = new WeakMap<ProxyCall, boolean>();
const floors = new WeakMap<ProxyCall, number>();

export const ROUND49_CHANNELS: UnseenViolation[] = [
  {
    name: 'live-stream-readers-share-one-queue',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (two readers open without a resume position)',
    stream(c, lines) {
      // Live readers are consumers of one broker queue, so each message goes to whichever reader pulled it first.
      home(c);
      if (!isStream(c) || resumeOf(c) !== undefined) return lines;
      const owner = (c.memory.get('r49-live-owner') ?? new Map<number, ProxyCall>()) as Map<number, ProxyCall>;
      c.memory.set('r49-live-owner', owner);
      return dropMessages(c, lines, liveSkip, (id) => {
        if (!owner.has(id)) owner.set(id, c);
        return owner.get(id) !== c;
      });
    },
  },
  {
    name: 'stream-resume-below-other-readers-position-skips',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or cursor (a cursor older than what any reader has already read)',
    stream(c, lines) {
      // The stream keeps one high-water mark per service and serves resumptions from the mark, not from the cursor.
      home(c);
      if (!isStream(c)) return lines;
      const high = (c.memory.get('r49-high') as number | undefined) ?? 0;
      const from = resumeOf(c);
      if (!floors.has(c)) floors.set(c, from !== undefined && from < high ? high : -1);
      const floor = floors.get(c) ?? -1;
      for (const m of lines.matchAll(/^id: (\d+)$/gm)) c.memory.set('r49-high', Math.max(high, Number(m[1])));
      return floor < 0 ? lines : dropMessages(c, lines, oldSkip, (id) => id <= floor);
    },
  },
  {
    name: 'second-tenant-stream-ids-tenant-prefixed',
    statement: 'Events: Every message carries a consecutive number (a reader naming the second tenant)',
    request(c) {
      // Only to learn the run's own tenant from its first authenticated call (streams answer no JSON hook).
      home(c);
      return undefined;
    },
    stream(c, lines) {
      // The multi-tenant broker namespaces message ids with the tenant for every tenant but the first it served.
      const second = isSecond(c);
      if (!second || !isStream(c)) return lines;
      return lines.replace(/^id: (\d+)$/gm, `id: ${c.headers['x-service-tenant']}-$1`);
    },
  },
  {
    name: 'alt-delivery-log-meta-version-earlier',
    statement:
      'Versioning: Responses report it (2026-07-01) in meta.version; the delivery log was added in 2026-07-01 (the log under {alt_base_url})',
    answer(c, a) {
      // The alternate address proxies the delivery log to a worker still built from the previous release.
      home(c);
      if (c.base === 'alt' && c.method === 'GET' && LOG.test(c.path) && a.json.meta) a.json.meta.version = EARLIER;
    },
  },
  {
    name: 'alt-audit-proof-head-is-oldest-entry',
    statement:
      'GET /api/public/v1/audit-log: traceable changes, including a proof of integrity (the proof’s head under {alt_base_url})',
    answer(c, a) {
      // The alternate replica sorts entries descending before building the proof and takes the last one as head.
      home(c);
      const entries = a.json.data?.entries as Rec[] | undefined;
      const proof = a.json.data?.proof as Rec | undefined;
      if (c.base !== 'alt' || !isAudit(c) || !Array.isArray(entries) || entries.length < 2 || !proof?.headHash) return;
      const oldest = [...entries].sort((x, y) => Number(x?.seq) - Number(y?.seq))[0];
      if (typeof oldest?.hash === 'string') proof.headHash = oldest.hash;
    },
  },
  {
    name: 'signature-over-body-with-blanks-stripped',
    statement:
      'Webhooks: HMAC-SHA256 over <t>, a dot, and the unchanged raw request body (a body with blanks inside values)',
    sign(body, secret, t) {
      // The signer minifies the body with a whitespace regex first, which also eats blanks inside strings.
      return signWebhook(body.replace(/\s+/g, ''), secret, t);
    },
  },
  {
    name: 'delivery-log-after-redelivery-drops-original',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the log read after a redelivery)',
    answer(c, a) {
      // Redelivery moves the row to the retry table, and the log view only reads the main table.
      home(c);
      const gone = (c.memory.get('r49-redelivered') ?? new Set<string>()) as Set<string>;
      c.memory.set('r49-redelivered', gone);
      const m = c.method === 'POST' ? REDELIVER.exec(c.path) : null;
      if (m?.[1] && a.status === 200) gone.add(decodeURIComponent(m[1]));
      const d = a.json.data as Rec | undefined;
      if (c.method !== 'GET' || !LOG.test(c.path) || !Array.isArray(d?.deliveries) || gone.size === 0) return;
      d.deliveries = (d.deliveries as Rec[]).filter((x) => !gone.has(String(x?.id)));
      d.count = d.deliveries.length;
    },
  },
];
