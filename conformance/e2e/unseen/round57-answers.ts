import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 57, part 1: time stamps (meta.at, createdAt, expiresAt) in the formats and relations a client reads them. */
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const isKeyIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const iso = (v: unknown): v is string => typeof v === 'string' && ISO.test(v);
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export const ROUND57_ANSWERS: UnseenViolation[] = [
  {
    name: 'replayed-meta-at-date-tostring',
    statement:
      'Meta: at | string, date-time | yes; POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true (a repeated creation)',
    answer(c, a) {
      // The replay cache stores meta with JSON of a Date-bearing object read back by a hand-written mapper that calls String(date).
      home(c);
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true || !iso(a.json.meta.at)) return;
      a.json.meta.at = new Date(a.json.meta.at).toString();
    },
  },
  {
    name: 'issued-key-expires-at-space-separated',
    statement:
      'Idempotency key result: expiresAt | string, date-time; POST /api/public/v1/idempotency-keys: data: ... expiresAt (date-time)',
    answer(c, a) {
      // expiresAt is read back from the key table as its SQL text form ("2026-11-30 09:50:00.123Z") and passed through.
      home(c);
      if (!isKeyIssue(c) || a.status !== 200 || !iso(a.json.data?.expiresAt)) return;
      a.json.data.expiresAt = a.json.data.expiresAt.replace('T', ' ');
    },
  },
  {
    name: 'alt-created-at-utc-suffix',
    statement:
      'Connection: createdAt | string, date-time; the same interface is also offered under a second main-domain address (a creation at the alternate address)',
    answer(c, a) {
      // The second address runs the older gateway whose date formatter writes "... UTC" instead of the RFC 3339 "Z".
      home(c);
      if (!isCreate(c) || c.base !== 'alt' || a.status !== 200) return;
      const at = a.json.data?.createdAt;
      if (iso(at) && at.endsWith('Z')) a.json.data.createdAt = `${at.slice(0, -1)} UTC`;
    },
  },
  {
    name: 'not-found-meta-at-zone-id-bracketed',
    statement: 'Failure envelope: meta | Meta | yes; Meta: at | string, date-time (a 404 not_found answer)',
    answer(c, a) {
      // The not-found mapper lives in the JVM lookup service, whose ZonedDateTime.toString() appends the zone id "[UTC]".
      home(c);
      if (a.status !== 404 || !iso(a.json.meta?.at)) return;
      a.json.meta.at = `${a.json.meta.at}[UTC]`;
    },
  },
  {
    name: 'empty-filtered-connectors-meta-at-basic-format',
    statement:
      'Meta: at | string, date-time | yes; GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) (a filter that matches nothing)',
    answer(c, a) {
      // The empty-result short cut builds its envelope with the compact log timestamp (ISO 8601 basic: 20261129T095000Z).
      home(c);
      if (!isGet(c, '/connectors') || a.status !== 200 || [...c.search.keys()].length === 0) return;
      if (a.json.data?.count !== 0 || !iso(a.json.meta?.at)) return;
      const d = new Date(a.json.meta.at);
      a.json.meta.at = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
    },
  },
  {
    name: 'rate-limited-meta-at-locale-formatted',
    statement: 'Failure envelope: meta | Meta | yes; Meta: at | string, date-time (a 429 rate_limited answer)',
    answer(c, a) {
      // The limiter plugin writes its own envelope and stamps it with toLocaleString('de-DE') of the gateway host.
      home(c);
      if (a.status !== 429 || !iso(a.json.meta?.at)) return;
      a.json.meta.at = new Date(a.json.meta.at).toLocaleString('de-DE', { timeZone: 'Europe/Berlin' });
    },
  },
  {
    name: 'second-tenant-listed-created-at-postgres-text',
    statement:
      'Connection: createdAt | string, date-time; GET /api/public/v1/connections: connections (array of Connection) (the second tenant’s list)',
    answer(c, a) {
      // The second tenant lives on the reporting replica whose view casts created_at to text: "2026-11-29 09:50:00.123+00".
      if (!isSecond(c) || !isGet(c, '/connections') || a.status !== 200) return;
      for (const con of (a.json.data?.connections ?? []) as Rec[])
        if (iso(con?.createdAt))
          con.createdAt = new Date(con.createdAt).toISOString().replace('T', ' ').replace('Z', '+00');
    },
  },
  {
    name: 'created-at-copied-from-key-issue-time',
    statement:
      'Connection: createdAt | string, date-time; Meta: at (a connection created with a key issued earlier by POST /api/public/v1/idempotency-keys)',
    answer(c, a) {
      // The connection row is filled from the key reservation row, and its created_at column is the key's issue time.
      home(c);
      const issued = (c.memory.get('r57-issued-at') as Map<string, string> | undefined) ?? new Map<string, string>();
      c.memory.set('r57-issued-at', issued);
      if (isKeyIssue(c) && a.status === 200 && typeof a.json.data?.idempotencyKey === 'string' && iso(a.json.meta?.at))
        issued.set(a.json.data.idempotencyKey, a.json.meta.at);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || a.status !== 200 || !key || !issued.has(key) || !iso(a.json.data?.createdAt)) return;
      const at = issued.get(key) as string;
      if (Date.parse(at) < Date.parse(a.json.data.createdAt)) a.json.data.createdAt = at;
    },
  },
  {
    name: 'replayed-created-at-milliseconds-truncated',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again; Connection: createdAt | string, date-time (a repeated creation)',
    answer(c, a) {
      // The replay store keeps the answer in columns, createdAt in a DATETIME(0) that drops the milliseconds of the first answer.
      home(c);
      if (!isCreate(c) || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const at = a.json.data?.createdAt;
      if (iso(at) && /\.\d+/.test(at)) a.json.data.createdAt = at.replace(/\.\d+/, '');
    },
  },
];
