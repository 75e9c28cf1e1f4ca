import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 43 of the unseen violations, part 4: channels — delivered event ids that differ from the
 * delivery log's, repeated deliveries without the tenant field, a second tenant's audit entries naming
 * the first tenant's connection, a second tenant's alternate registration without its signing key,
 * alternate audit reads ignoring limit, and alternate resumptions sending the last-read message again.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const signatureName = (headers: Record<string, string>) =>
  Object.keys(headers).find((k) => /^t=\d+,v1=[0-9a-f]+$/.test(headers[k] ?? ''));
/** Rewrites a delivery's JSON body and signs the new one, as a relay behind the signer would. */
const rewrite = (
  d: { body: string; headers: Record<string, string> },
  resign: (body: string) => string,
  edit: (b: Rec) => void,
) => {
  const name = signatureName(d.headers);
  let parsed: Rec;
  try {
    parsed = JSON.parse(d.body) as Rec;
  } catch {
    return;
  }
  edit(parsed);
  d.body = JSON.stringify(parsed);
  if (name) d.headers[name] = resign(d.body);
};
/** Delivery bodies already sent once (deliveries carry no call, so no violation memory). */
const sentBodies = new Set<string>();

export const ROUND43_CHANNELS: UnseenViolation[] = [
  {
    name: 'delivered-event-id-differs-from-log',
    statement: 'Webhooks: Deliveries are recorded in a delivery log (the delivered event is the one the log records)',
    deliver(d, resign) {
      // An outbound relay re-identifies events with its own prefix after the log row was written.
      rewrite(d, resign, (b) => {
        if (typeof b.id === 'string') b.id = `relay_${b.id}`;
      });
    },
  },
  {
    name: 'repeated-delivery-drops-tenant-field',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the recorded delivery, unchanged)',
    deliver(d, resign) {
      // Repeated deliveries are rebuilt from the log row by a serializer that skips the tenant column.
      const original = d.body;
      if (!sentBodies.has(original)) return void sentBodies.add(original);
      rewrite(d, resign, (b) => {
        delete b.tenant;
      });
    },
  },
  {
    name: 'second-tenant-audit-targets-first-tenant-connection',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant; Errors: not_found — entry belongs to another tenant (a second tenant’s log names only its own entries)',
    answer(c, a) {
      // The second tenant's audit view joins targets by sequence number against the first tenant's table.
      const second = isSecond(c);
      const mine = (c.memory.get('r43-home-conns') ?? []) as string[];
      if (!second && isCreate(c) && a.status === 200 && typeof a.json.data?.id === 'string')
        c.memory.set('r43-home-conns', [...mine, a.json.data.id]);
      const entries = a.json.data?.entries;
      if (!second || c.method !== 'GET' || c.path !== P('/audit-log') || !Array.isArray(entries)) return;
      const foreign = mine[0];
      if (!foreign) return;
      for (const e of entries as Rec[]) if (/connection/i.test(String(e?.action ?? ''))) e.target = foreign;
    },
  },
  {
    name: 'alt-second-tenant-registration-withholds-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once (a second tenant under {alt_base_url})',
    answer(c, a) {
      // The alternate region's partner console masks secrets in every answer, the one-time issue included.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      if (!second || c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/webhooks') || !data) return;
      for (const k of Object.keys(data)) if (/secret|signingkey/i.test(k)) delete data[k];
    },
  },
  {
    name: 'alt-audit-limit-ignored',
    statement: 'GET /api/public/v1/audit-log: Query: limit (number of entries) (under {alt_base_url} too)',
    request(c) {
      // The alternate region's audit proxy forwards only the parameters of its own allow-list.
      home(c);
      if (c.base === 'alt' && c.method === 'GET' && c.path === P('/audit-log')) c.search.delete('limit');
      return undefined;
    },
  },
  {
    name: 'alt-cursor-resume-repeats-last-read',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once; resumes by cursor (last number read) (under {alt_base_url} too)',
    request(c) {
      // The alternate region's stream reads cursor as "the next number to send".
      home(c);
      const cursor = Number(c.search.get('cursor'));
      if (c.base === 'alt' && isStream(c) && c.search.has('cursor') && Number.isInteger(cursor) && cursor > 0)
        c.search.set('cursor', String(cursor - 1));
      return undefined;
    },
  },
  {
    name: 'alt-last-event-id-first-message-twice',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (resumed by Last-Event-ID under {alt_base_url})',
    stream(c, lines) {
      // The alternate region's resume path writes the first backlog message, then the whole backlog.
      home(c);
      const last = Number(c.headers['last-event-id']);
      if (c.base !== 'alt' || !isStream(c) || !Number.isInteger(last)) return lines;
      return lines
        .split(/(?<=\n\n)/)
        .map((block) => (new RegExp(`^id: ${last + 1}\\n`).test(block) ? block + block : block))
        .join('');
    },
  },
];
