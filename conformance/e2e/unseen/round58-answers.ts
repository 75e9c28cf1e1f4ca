import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 58, part 1: the capability decision against what else the service says (catalog, connector, environment, tenant, address, version). */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const decisionOf = (c: ProxyCall, a: { status: number; json: Rec }) =>
  isCheck(c) && a.status === 200 && a.json.data?.decision && typeof a.json.data.decision === 'object'
    ? (a.json.data.decision as Rec)
    : undefined;
const bodyOf = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : {});

export const ROUND58_ANSWERS: UnseenViolation[] = [
  {
    name: 'decision-flags-from-first-checked-capability-of-connector',
    statement:
      'CapabilityDecision (all fields required): critical, idempotencyRequired; Capability: critical | boolean; idempotencyRequired | whether calls using this capability need an idempotency key (a check of a second capability of a connector already checked)',
    answer(c, a) {
      // The policy lookup caches the flag pair per connector (set-if-absent) instead of per connector and capability:
      // the second capability checked on a connector gets the flags of the first one.
      home(c);
      const d = decisionOf(c, a);
      if (!d || typeof d.connectorId !== 'string') return;
      const key = `r58-flags:${d.connectorId}`;
      const first = c.memory.get(key) as Rec | undefined;
      if (!first) {
        c.memory.set(key, {
          capability: d.capability,
          critical: d.critical,
          idempotencyRequired: d.idempotencyRequired,
        });
        return;
      }
      if (first.capability === d.capability) return;
      d.critical = first.critical;
      d.idempotencyRequired = first.idempotencyRequired;
    },
  },
  {
    name: 'alt-denied-decision-served-allowed',
    statement:
      'What the service does: A capability check returns a decision (allowed or not) with a reason; the same interface is also offered under a second main-domain address (a check the main address denies, asked at the alternate address)',
    answer(c, a) {
      // The alternate address runs a policy sidecar that was deployed with the allow-all sandbox policy file, so it
      // never says no; the reason text still comes from the real engine.
      home(c);
      const d = decisionOf(c, a);
      if (!d || c.base !== 'alt' || d.allowed !== false) return;
      d.allowed = true;
    },
  },
  {
    name: 'defaulted-check-environment-echo-omitted',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox; data: decision (CapabilityDecision), environment (Environment) (a check that names no environment)',
    answer(c, a) {
      // The answer is mapped through a protobuf message (proto3): the enum's default value is not serialised, so the
      // defaulted environment disappears from data.
      home(c);
      if (!decisionOf(c, a) || bodyOf(c).environment !== undefined) return;
      delete a.json.data.environment;
    },
  },
  {
    name: 'second-tenant-allowed-decision-reason-null',
    statement:
      'CapabilityDecision (all fields required): reason | string (an allowed decision asked by the second tenant)',
    answer(c, a) {
      // The second tenant is on the new per-tenant policy engine, which only fills a reason when it says no.
      const second = isSecond(c);
      const d = decisionOf(c, a);
      if (!d || !second || d.allowed !== true) return;
      d.reason = null;
    },
  },
  {
    name: 'earlier-version-decision-idempotency-required-always-false',
    statement:
      'CapabilityDecision: idempotencyRequired | boolean; Capability: idempotencyRequired | whether calls using this capability need an idempotency key; Versioning: Change of 2026-06-12 (security): modifying calls require an idempotency key (a check under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 adapter maps the decision through the pre-security DTO whose idempotencyRequired defaults to false.
      home(c);
      const d = decisionOf(c, a);
      if (!d || !earlier(c) || d.idempotencyRequired !== true) return;
      d.idempotencyRequired = false;
    },
  },
  {
    name: 'decision-capability-echo-from-previous-check',
    statement:
      'CapabilityDecision (all fields required): capability | string; POST /api/public/v1/capabilities: check a capability of a connector (two checks of different capabilities in a row)',
    answer(c, a) {
      // The echo is read from a request-scoped holder that the logging middleware sets only after the answer is built:
      // every check echoes the capability of the call before it.
      home(c);
      const d = decisionOf(c, a);
      if (!d) return;
      const previous = c.memory.get('r58-prev-capability') as string | undefined;
      c.memory.set('r58-prev-capability', d.capability);
      if (previous !== undefined && previous !== d.capability) d.capability = previous;
    },
  },
  {
    name: 'keyed-check-decision-idempotency-required-true',
    statement:
      'CapabilityDecision: idempotencyRequired | boolean; Capability: idempotencyRequired | whether calls using this capability need an idempotency key (a check sent with an Idempotency-Key header for a capability the catalog marks false)',
    answer(c, a) {
      // The mapper ORs the catalog flag with "the caller sent a key" (a shortcut from the write path).
      home(c);
      const d = decisionOf(c, a);
      if (!d || !c.headers['idempotency-key'] || d.idempotencyRequired !== false) return;
      d.idempotencyRequired = true;
    },
  },
  {
    name: 'second-tenant-catalog-critical-flags-cleared',
    statement:
      'Capability: critical | boolean; GET /api/public/v1/capabilities: capability catalog (the catalog read by the second tenant, whose decisions still report critical true)',
    answer(c, a) {
      // The second tenant's catalog comes through the tenant plan overlay, which rebuilds each entry and forgets the
      // critical flag (false by default); its decisions still come from the shared catalog.
      const second = isSecond(c);
      if (!second || c.method !== 'GET' || c.path !== P('/capabilities') || a.status !== 200) return;
      const list = a.json.data?.capabilities;
      if (!Array.isArray(list)) return;
      for (const cap of list as Rec[])
        if (cap && typeof cap === 'object' && cap.critical === true) cap.critical = false;
    },
  },
];
