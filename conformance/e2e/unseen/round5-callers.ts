import { randomUUID } from 'node:crypto';
import { SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 5 of the unseen violations, part 3: what a caller sends, read subtly wrong — an earlier
 * Service-Version, the sample's field name, a second filter, a token in the query, a resumption without
 * a token — and a status stream numbered or labelled wrong for some messages only.
 */
const EARLIER = SUPPORTED_VERSIONS[1];
const sent = (c: ProxyCall) =>
  c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Record<string, unknown>) : undefined;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
/** A resume number written in hex, read back as the number it stands for. */
const fromHex = (v: string | null | undefined) => (v && /^[0-9a-f]+$/i.test(v.trim()) ? String(parseInt(v, 16)) : v);

export const ROUND5_CALLERS: UnseenViolation[] = [
  {
    name: 'earlier-version-decision-lacks-idempotency-required',
    statement:
      'CapabilityDecision (all fields required): idempotencyRequired — under 2026-06-12 too ("no change that requires adaptation")',
    answer(c, a) {
      const d = a.json.data?.decision;
      if (c.method === 'POST' && c.path === P('/capabilities') && c.headers['service-version'] === EARLIER && d)
        delete d.idempotencyRequired;
    },
  },
  {
    name: 'sample-restaurant-id-accepted',
    statement:
      'POST /connections: all fields required (scopeLabel); the sample sends restaurantId in its place, the field list is the schema',
    request(c) {
      // The deployment maps the sample's field onto the schema's instead of refusing the missing one.
      const b = sent(c);
      if (isCreate(c) && b && typeof b.restaurantId === 'string' && b.scopeLabel === undefined) {
        const { restaurantId, ...rest } = b;
        c.body = { ...rest, scopeLabel: restaurantId };
      }
      return undefined;
    },
  },
  {
    name: 'filtered-lists-cached-without-query',
    statement:
      'GET /providers, /connectors: category (and capability, providerId) restrict the list — each call its own',
    answer(c, a) {
      // A response cache for filtered lists whose key leaves out the query string.
      const catalog = c.path === P('/providers') || c.path === P('/connectors');
      const query = c.search.toString();
      if (c.method !== 'GET' || !catalog || a.status !== 200 || !query || !a.json.data) return;
      const slot = `filtered:${c.path}:${c.headers['x-service-tenant'] ?? ''}`;
      const first = c.memory.get(slot) as { query: string; data: unknown } | undefined;
      if (!first) c.memory.set(slot, { query, data: structuredClone(a.json.data) });
      else if (first.query !== query) a.json.data = structuredClone(first.data);
    },
  },
  {
    name: 'token-in-query-accepted',
    statement:
      'Authentication: Authorization (Bearer token) required on every authenticated call; credentials never travel where browsers and logs see them',
    request(c) {
      // RFC 6750's query form, left switched on: ?access_token= stands in for the header.
      const token = c.search.get('access_token');
      if (!c.headers.authorization && token) {
        c.headers.authorization = `Bearer ${token}`;
        c.search.delete('access_token');
      }
      return undefined;
    },
  },
  {
    name: 'stream-resume-needs-token',
    statement: 'Authentication: public endpoints (no authentication): GET /api/public/v1/stream — resuming too',
    request(c): ProxyAnswer | undefined {
      // The resume path looks the reader up by session, so a public reader who resumes is refused.
      const resumes = c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
      if (!isStream(c) || c.headers.authorization || !resumes) return undefined;
      const requestId = `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      return {
        status: 401,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
        json: {
          ok: false,
          error: { code: 'unauthorized', message: 'The call was not signed in.', hint: 'Resuming needs a token.' },
          meta: {
            requestId,
            version: c.headers['service-version'] ?? SUPPORTED_VERSIONS[0],
            at: new Date().toISOString(),
          },
        },
      };
    },
  },
  {
    name: 'stream-numbers-in-hex',
    statement: 'Status stream: every message carries a consecutive number (cursor: integer) — from 10 on too',
    request(c) {
      // Written in hex, and read back in hex, so a resumption still lands where the reader left off.
      if (!isStream(c)) return undefined;
      const cursor = c.search.get('cursor');
      if (cursor !== null) c.search.set('cursor', fromHex(cursor) ?? cursor);
      const id = c.headers['last-event-id'];
      if (id !== undefined) c.headers['last-event-id'] = fromHex(id) ?? id;
      return undefined;
    },
    stream(c, lines) {
      return isStream(c) ? lines.replace(/^id: ?(\d+)$/gm, (_m, n: string) => `id: ${Number(n).toString(16)}`) : lines;
    },
  },
  {
    name: 'state-changes-unnumbered',
    statement: 'Status stream: every message carries a consecutive number (state changes too)',
    stream(c, lines) {
      // Lifecycle messages come from another emitter that writes no id line.
      if (!isStream(c)) return lines;
      return lines
        .split('\n\n')
        .map((b) => (/^event: connection\.state_changed$/m.test(b) ? b.replace(/^id: ?\d+\n/m, '') : b))
        .join('\n\n');
    },
  },
];
