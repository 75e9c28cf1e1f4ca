import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 16 of the unseen violations, part 4: the stream, webhooks and the audit log — ids left off after
 * the third message, resumed ids written as decimals, a keep-alive sent as an unnumbered message, quoted
 * signature values, a delivery body pretty-printed after signing, and an audit log that records the
 * second tenant's changes nowhere.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resumed = (c: ProxyCall) => c.search.get('cursor') !== null || c.headers['last-event-id'] !== undefined;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const sigHeader = (h: Record<string, string>) =>
  Object.keys(h).find((k) => /^t=\d+,v1=[0-9a-f]+$/.test(h[k] ?? '')) ?? 'ncs-signature';
/** Per stream call: how many ids were written, and whether the keep-alive went out. */
const idsSeen = new WeakMap<ProxyCall, number>();
const pinged = new WeakSet<ProxyCall>();
const sawMessage = new WeakSet<ProxyCall>();

/** Rewrites the whole lines of a chunk one by one, keeping an unfinished tail as it is. */
const eachLine = (lines: string, f: (line: string) => string[]) => {
  const parts = lines.split('\n');
  const tail = parts.pop() ?? '';
  return parts.flatMap((l) => f(l).map((x) => `${x}\n`)).join('') + tail;
};

export const ROUND16_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-ids-dropped-after-third-message',
    statement: 'Events: Every message carries a consecutive number and arrives exactly once',
    stream(c, lines) {
      // The id writer sits in a per-connection buffer that is flushed only for the first batch of three.
      if (!isStream(c)) return lines;
      return eachLine(lines, (line) => {
        if (!/^id:/.test(line)) return [line];
        const n = (idsSeen.get(c) ?? 0) + 1;
        idsSeen.set(c, n);
        return n > 3 ? [] : [line];
      });
    },
  },
  {
    name: 'resumed-stream-ids-as-decimals',
    statement:
      'Events: Every message carries a consecutive number … the client resumes … by sending Last-Event-ID or the query parameter cursor (integer, minimum 0)',
    stream(c, lines) {
      // The backlog query returns the id column as NUMERIC, which the writer prints with one decimal place.
      if (!isStream(c) || !resumed(c)) return lines;
      return eachLine(lines, (line) => [line.replace(/^id:\s*(\d+)\s*$/, 'id: $1.0')]);
    },
  },
  {
    name: 'keepalive-sent-as-unnumbered-message',
    statement: 'Events: Every message carries a consecutive number and arrives exactly once',
    stream(c, lines) {
      // The proxy in front of the service injects its keep-alive as a data event rather than an SSE comment.
      if (!isStream(c)) return lines;
      return eachLine(lines, (line) => {
        if (/^id:/.test(line)) sawMessage.add(c);
        if (line.replace(/\r$/, '') === '' && sawMessage.has(c) && !pinged.has(c)) {
          pinged.add(c);
          return [line, 'event: keepalive', 'data: {"type":"keepalive"}', ''];
        }
        return [line];
      });
    },
  },
  {
    name: 'signature-values-quoted',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    deliver(d) {
      // The header is built by a generic "structured field" serialiser that quotes every value.
      const name = sigHeader(d.headers);
      const m = /^t=(\d+),v1=([0-9a-f]+)$/.exec(d.headers[name] ?? '');
      if (m) d.headers[name] = `t="${m[1]}",v1="${m[2]}"`;
    },
  },
  {
    name: 'delivery-body-pretty-printed-after-signing',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 … over the text <t>, a dot, and the unchanged raw request body',
    deliver(d) {
      // The HTTP client re-serialises JSON bodies with indentation after the signer saw the compact text.
      try {
        d.body = JSON.stringify(JSON.parse(d.body), null, 2);
      } catch {
        // Not JSON: sent as signed.
      }
    },
  },
  {
    name: 'audit-misses-second-tenant-changes',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // The audit writer takes the tenant from the token's default tenant, so the second tenant's log stays empty.
      const d = a.json.data as Rec | undefined;
      const mine = home(c);
      const tenant = c.headers['x-service-tenant'];
      if (c.method !== 'GET' || c.path !== P('/audit-log') || !ok(a) || !d || !mine || tenant === mine) return;
      if (!Array.isArray(d.entries)) return;
      d.entries = [];
      if (typeof d.count === 'number') d.count = 0;
      delete d.proof;
    },
  },
];
