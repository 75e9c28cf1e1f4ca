import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 32 of the unseen violations, part 4: channels — a resumed stream sends only the first page of
 * its backlog, repeated deliveries carry the stored signature header beside the fresh one, and a
 * second tenant's resumed stream reads the first tenant's feed.
 */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resumeAt = (c: ProxyCall) => {
  const v = c.search.get('cursor') ?? c.headers['last-event-id'];
  return v === undefined || v === null || !/^\d+$/.test(v) ? undefined : Number(v);
};
/** When each stream connection started (the call object lives as long as its stream). */
const started = new WeakMap<ProxyCall, number>();
/** The signature header of each delivery body's first attempt. */
const firstSignature = new Map<string, string>();

export const ROUND32_CHANNELS: UnseenViolation[] = [
  {
    name: 'resume-backlog-first-page-only',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) — the whole backlog, not its first page',
    stream(c, lines) {
      // The backlog query has LIMIT 3 and no loop over further pages: missed messages after the third
      // are lost; live messages later arrive as usual.
      const at = isStream(c) ? resumeAt(c) : undefined;
      if (at === undefined) return lines;
      const t0 = started.get(c) ?? Date.now();
      started.set(c, t0);
      if (Date.now() - t0 > 400) return lines;
      return lines
        .split(/(?<=\n\n)/)
        .filter((block) => {
          const id = /^id: ?(\d+)\s*$/m.exec(block)?.[1];
          return id === undefined || Number(id) <= at + 3;
        })
        .join('');
    },
  },
  {
    name: 'repeat-delivery-signature-header-appended',
    statement:
      'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature> (on a repeated delivery too)',
    deliver(d) {
      // A repeated delivery starts from the stored headers of the first attempt and appends the fresh
      // signature, so the header carries two t/v1 pairs, the first one stale.
      const name = Object.keys(d.headers).find((k) => /^t=\d+,v1=[0-9a-f]+$/.test(d.headers[k] ?? ''));
      if (!name) return;
      const value = d.headers[name] ?? '';
      const first = firstSignature.get(d.body);
      if (first === undefined) return void firstSignature.set(d.body, value);
      d.headers[name] = `${first}, ${value}`;
    },
  },
  {
    name: 'second-tenant-stream-resume-uses-home-feed',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (x-service-tenant: the tenant for which the call applies — a second tenant too)',
    request(c) {
      // The resume path looks the feed up by the token's default tenant, not by the header: a second
      // tenant resuming its stream gets the first tenant's messages.
      const first = home(c);
      if (!isStream(c) || resumeAt(c) === undefined || !first) return undefined;
      const tenant = c.headers['x-service-tenant'];
      if (tenant && tenant !== first) c.headers['x-service-tenant'] = first;
      return undefined;
    },
  },
];
