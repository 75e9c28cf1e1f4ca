import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { altSecond, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 44, part 1: answers. */
export const ROUND44_ANSWERS: UnseenViolation[] = [
  {
    name: 'alt-second-tenant-replay-repeats-first-request-id',
    statement: 'Meta: requestId | identifier of this call (a second tenant’s replay under {alt_base_url})',
    answer(c, a) {
      // The alternate region's partner replay cache stores the whole envelope, meta included.
      const hit = altSecond(c);
      const key = c.headers['idempotency-key'];
      if (!hit || !isCreate(c) || !key || a.status !== 200) return;
      const first = c.memory.get(`r43b-rid-${key}`) as string | undefined;
      if (!first) c.memory.set(`r43b-rid-${key}`, a.json.meta?.requestId);
      else if (a.json.meta?.replayed === true) a.json.meta.requestId = first;
    },
  },
  {
    name: 'alt-second-tenant-check-environment-reported-sandbox',
    statement:
      'POST /api/public/v1/capabilities: environment | Environment; default sandbox — data: environment (a second tenant naming another environment under {alt_base_url})',
    answer(c, a) {
      // The partner decision path at the alternate region echoes the default instead of the asked environment.
      const hit = altSecond(c);
      if (hit && c.method === 'POST' && c.path === P('/capabilities') && a.json.data?.environment)
        a.json.data.environment = 'sandbox';
    },
  },
  {
    name: 'alt-second-tenant-providers-count-plus-one',
    statement: 'GET /api/public/v1/providers: data: count (integer), providers (a second tenant under {alt_base_url})',
    answer(c, a) {
      // The partner view counts the header row of its CSV-backed provider export.
      const hit = altSecond(c);
      const d = a.json.data as Rec | undefined;
      if (hit && c.method === 'GET' && c.path === P('/providers') && typeof d?.count === 'number') d.count += 1;
    },
  },
  {
    name: 'alt-second-tenant-decision-connector-id-null',
    statement: 'CapabilityDecision (all fields required): connectorId | string (a second tenant under {alt_base_url})',
    answer(c, a) {
      // The partner decision cache keys on connectorId and stores the value as NULL.
      const hit = altSecond(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (hit && c.method === 'POST' && c.path === P('/capabilities') && decision) decision.connectorId = null;
    },
  },
  {
    name: 'second-tenant-remaining-exceeds-limit',
    statement:
      'Limits: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (a second tenant)',
    answer(c, a) {
      // The second tenant's counter is subtracted from the limit of the token's plan, which is larger.
      const second = isSecond(c);
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (second && Number.isFinite(limit) && a.headers['x-ratelimit-remaining'] !== undefined)
        a.headers['x-ratelimit-remaining'] = String(limit * 2);
    },
  },
  {
    name: 'earlier-version-creation-next-step-numbered',
    statement: 'Connection: nextStep | string (a creation under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 serializer writes the step's ordinal from the workflow table.
      home(c);
      if (earlier(c) && isCreate(c) && a.json.data && 'nextStep' in a.json.data) a.json.data.nextStep = 1;
    },
  },
  {
    name: 'replay-after-two-seconds-new-connection-id',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a replay a few seconds later too)',
    answer(c, a) {
      // The replay cache's hot tier expires after 2 s; the cold tier rebuilds the answer with a fresh id.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200 || typeof a.json.data?.id !== 'string') return;
      const at = c.memory.get(`r43b-at-${key}`) as number | undefined;
      if (at === undefined) c.memory.set(`r43b-at-${key}`, Date.now());
      else if (a.json.meta?.replayed === true && Date.now() - at > 2000) a.json.data.id = `${a.json.data.id}x`;
    },
  },
  {
    name: 'alt-second-tenant-listed-capabilities-as-strings',
    statement:
      'Connection: capabilities | array of object | each entry: capability, critical, idempotencyRequired (a second tenant’s list under {alt_base_url})',
    answer(c, a) {
      // The partner read model at the alternate region flattens capability rows to their names.
      const hit = altSecond(c);
      const list = a.json.data?.connections;
      if (!hit || c.method !== 'GET' || c.path !== P('/connections') || !Array.isArray(list)) return;
      for (const x of list as Rec[])
        if (Array.isArray(x?.capabilities)) x.capabilities = x.capabilities.map((e: Rec) => e?.capability ?? e);
    },
  },
];
