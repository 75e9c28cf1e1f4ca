import type { UnseenViolation } from './proxy.ts';
import { home, LISTS, P, refuse } from './proxy-helpers.ts';
import { altSecond, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 46, part 1: answers wrong only under an unusual but valid request, in one place, or after several calls. */

export const ROUND46_ANSWERS: UnseenViolation[] = [
  {
    name: 'head-read-answered-204',
    statement: 'Endpoints: Success responses use status 200 and the success envelope (a HEAD of an authenticated read)',
    request(c) {
      // The gateway's HEAD shortcut answers "no content" for known reads before the service sees the call.
      home(c);
      if (c.method !== 'HEAD' || !LISTS[c.path]) return undefined;
      return { status: 204, headers: { 'x-request-id': `req_gw${Date.now().toString(36)}` }, json: {} };
    },
  },
  {
    name: 'options-refusal-ok-true',
    statement: 'Failure envelope: ok | boolean | yes | always false (an OPTIONS call refused)',
    answer(c, a) {
      // The CORS middleware renders its own envelope and copies ok from the preflight template.
      home(c);
      if (c.method === 'OPTIONS' && a.status >= 400 && a.json.ok === false) a.json.ok = true;
    },
  },
  {
    name: 'encoded-path-not-found-answered-500',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier; internal | 500 | fault on the service side (a path with a percent-encoded segment)',
    answer(c, a) {
      // The router's decodeURIComponent throws on the encoded segment and the error handler calls it internal.
      home(c);
      if (c.path.includes('%') && a.status === 404) refuse(a, 500, 'internal', 'Unexpected error.');
    },
  },
  {
    name: 'repeated-query-parameter-answered-500',
    statement:
      'Errors: invalid_request | 400 | wrong data type; internal | 500 | fault on the service side (a query parameter sent twice)',
    answer(c, a) {
      // The filter builder calls .trim() on what is an array when a parameter repeats.
      home(c);
      const repeated = [...new Set(c.search.keys())].some((k) => c.search.getAll(k).length > 1);
      if (repeated && a.status === 400) refuse(a, 500, 'internal', 'Unexpected error.');
    },
  },
  {
    name: 'catalog-count-drifts-after-fourth-read',
    statement: 'GET /api/public/v1/providers: data: count (integer), providers (the fifth and later read of one list)',
    answer(c, a) {
      // The count is a cached counter incremented on every cache refresh instead of being recomputed.
      home(c);
      const field = LISTS[c.path];
      const d = a.json.data as Rec | undefined;
      if (c.method !== 'GET' || !field || field === 'connections' || typeof d?.count !== 'number') return;
      const n = ((c.memory.get(`r46-reads-${c.path}`) as number | undefined) ?? 0) + 1;
      c.memory.set(`r46-reads-${c.path}`, n);
      if (n > 4) d.count += n - 4;
    },
  },
  {
    name: 'alt-second-tenant-listed-environment-uppercased',
    statement:
      'Connection: environment | Environment (development, sandbox, pilot, production) (a second tenant’s list under {alt_base_url})',
    answer(c, a) {
      // The partner region's read model stores the enum's constant names.
      const hit = altSecond(c);
      const list = a.json.data?.connections;
      if (!hit || c.method !== 'GET' || c.path !== P('/connections') || !Array.isArray(list)) return;
      for (const conn of list as Rec[])
        if (typeof conn?.environment === 'string') conn.environment = conn.environment.toUpperCase();
    },
  },
  {
    name: 'earlier-version-decision-critical-null',
    statement:
      'CapabilityDecision (all fields required): critical | boolean (a check under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 decision mapper reads critical from a column added only later.
      home(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (earlier(c) && c.method === 'POST' && c.path === P('/capabilities') && decision) decision.critical = null;
    },
  },
  {
    name: 'second-tenant-catalog-idempotency-flag-null',
    statement: 'Capability: idempotencyRequired | boolean (the capability catalog read by a second tenant)',
    answer(c, a) {
      // Partner tenants read the catalog through a view that left-joins the flag from the home tenant's overrides.
      const second = isSecond(c);
      const list = a.json.data?.capabilities;
      if (!second || c.method !== 'GET' || c.path !== P('/capabilities') || !Array.isArray(list)) return;
      for (const cap of list as Rec[]) if (cap && typeof cap === 'object') cap.idempotencyRequired = null;
    },
  },
];
