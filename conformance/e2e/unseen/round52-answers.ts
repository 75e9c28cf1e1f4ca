import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 52, part 1: body member order, repeated reads, filter pairs, quick replays, denials, locales, namespaced operations. */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});

export const ROUND52_ANSWERS: UnseenViolation[] = [
  {
    name: 'environment-first-check-decision-lacks-reason',
    statement:
      'CapabilityDecision (all fields required): reason | string (a check whose body names environment as its first member)',
    answer(c, a) {
      // A hand-written streaming body reader takes the environment-first layout for the "short form" and skips the reason text.
      home(c);
      if (!isCheck(c) || a.status !== 200 || Object.keys(bodyOf(c.body))[0] !== 'environment') return;
      if (a.json.data?.decision) delete a.json.data.decision.reason;
    },
  },
  {
    name: 'repeated-providers-read-reuses-request-id',
    statement:
      'Meta: requestId | string | yes | identifier of this call (the same provider read sent again within two seconds)',
    answer(c, a) {
      // A micro-cache in front of the catalog replays the whole earlier answer, meta and X-Request-Id included.
      const tenant = home(c);
      if (c.method !== 'GET' || c.path !== P('/providers') || a.status !== 200 || !a.json.meta) return;
      const key = `r52-prov:${tenant}:${c.headers['x-service-tenant']}:${c.search.toString()}`;
      const prev = c.memory.get(key) as { at: number; id: string } | undefined;
      if (prev && Date.now() - prev.at < 2000) {
        a.json.meta.requestId = prev.id;
        a.headers['x-request-id'] = prev.id;
        return;
      }
      c.memory.set(key, { at: Date.now(), id: a.json.meta.requestId });
    },
  },
  {
    name: 'capability-and-category-filtered-connectors-lack-name',
    statement: 'Connector: name | string (a connector list filtered by capability and category together)',
    answer(c, a) {
      // The two-filter query goes through a covering index whose projection has no name column.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/connectors')) return;
      if (!c.search.has('capability') || !c.search.has('category')) return;
      for (const con of (a.json.data?.connectors ?? []) as Rec[]) if (con) delete con.name;
    },
  },
  {
    name: 'quick-replay-created-at-restamped',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a replay sent within two seconds of the original)',
    answer(c, a) {
      // A replay that arrives while the original's cache entry is still being written is rebuilt from the row, stamped now.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || a.status !== 200 || !key || !a.json.data) return;
      const first = c.memory.get(`r52-created:${key}`) as number | undefined;
      if (a.json.meta?.replayed !== true) c.memory.set(`r52-created:${key}`, Date.now());
      else if (first && Date.now() - first < 2000) a.json.data.createdAt = new Date().toISOString();
    },
  },
  {
    name: 'denied-decision-lacks-connector-id',
    statement: 'CapabilityDecision (all fields required): connectorId | string (a check whose decision is not allowed)',
    answer(c, a) {
      // The denial branch builds its decision from the policy row, which holds the capability but not the connector.
      home(c);
      const d = a.json.data?.decision as Rec | undefined;
      if (isCheck(c) && a.status === 200 && d && d.allowed === false) delete d.connectorId;
    },
  },
  {
    name: 'german-locale-meta-version-as-local-date',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version (a call sent with Accept-Language: de)',
    answer(c, a) {
      // The response decorator formats every date-like meta field with the caller's locale, version included.
      home(c);
      const lang = (c.headers['accept-language'] ?? '').toLowerCase();
      const v = a.json.meta?.version;
      if (lang.startsWith('de') && typeof v === 'string' && /^\d{4}-\d\d-\d\d$/.test(v)) {
        const [y, m, d] = v.split('-');
        a.json.meta.version = `${d}.${m}.${y}`;
      }
    },
  },
  {
    name: 'earlier-development-creation-next-step-null',
    statement: 'Connection: nextStep | string (a development connection created with version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 next-step texts were written per environment, and development was added without one.
      home(c);
      if (isCreate(c) && earlier(c) && a.status === 200 && bodyOf(c.body).environment === 'development' && a.json.data)
        a.json.data.nextStep = null;
    },
  },
  {
    name: 'namespaced-operation-key-expiry-as-epoch',
    statement:
      'Idempotency key result: expiresAt | string, date-time (a key issued for an operation name with a colon)',
    answer(c, a) {
      // Operations of the form namespace:verb are routed to the legacy key issuer, which writes epoch seconds.
      home(c);
      const op = bodyOf(c.body).operation;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || typeof op !== 'string' || !op.includes(':'))
        return;
      const at = a.json.data?.expiresAt;
      if (typeof at === 'string') a.json.data.expiresAt = Math.floor(Date.parse(at) / 1000);
    },
  },
];
