import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 51, part 1: echoes of the request, list projections, flag types per tenant, a status per event name, meta formats. */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
/** `2026-11-29 00:23:12`: what a legacy SQL-style formatter writes (no `T`, no zone). */
const sqlTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');

export const ROUND51_ANSWERS: UnseenViolation[] = [
  {
    name: 'pilot-check-environment-echo-reset-to-sandbox',
    statement:
      'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment); environment default sandbox (only when not sent) (a check sent for pilot)',
    answer(c, a) {
      // The response mapper re-applies the default from a misspelt field (`enviroment`), so every pilot check echoes sandbox.
      home(c);
      if (isCheck(c) && a.status === 200 && bodyOf(c.body).environment === 'pilot' && a.json.data)
        a.json.data.environment = 'sandbox';
    },
  },
  {
    name: 'second-tenant-connection-list-capabilities-as-plain-strings',
    statement:
      'GET /api/public/v1/connections: connections (array of Connection); Connection: capabilities | array of object (the second tenant’s list read)',
    answer(c, a) {
      // The second tenant's list is served from a denormalised read model that kept only the capability ids.
      const second = isSecond(c);
      if (!second || c.method !== 'GET' || c.path !== P('/connections') || !Array.isArray(a.json.data?.connections))
        return;
      for (const con of a.json.data.connections as Rec[])
        if (Array.isArray(con?.capabilities))
          con.capabilities = (con.capabilities as Rec[]).map((e) => (e && typeof e === 'object' ? e.capability : e));
    },
  },
  {
    name: 'replay-meta-idempotency-key-lowercased',
    statement:
      'Meta: idempotencyKey | the key used for the call; POST /api/public/v1/connections: replay with meta.idempotencyKey set (a key with capital letters)',
    answer(c, a) {
      // The replay cache normalises keys to lower case for its lookup and echoes the normalised key.
      home(c);
      const key = c.headers['idempotency-key'];
      if (isCreate(c) && a.json.meta?.replayed === true && key && /[A-Z]/.test(key))
        a.json.meta.idempotencyKey = key.toLowerCase();
    },
  },
  {
    name: 'webhook-registration-with-order-paid-answered-202',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope (a webhook registration naming order.paid)',
    answer(c, a) {
      // Payment events are subscribed through the orders bus, whose client returns 202 Accepted, and the status is passed on.
      home(c);
      const events = bodyOf(c.body).events;
      if (c.method === 'POST' && c.path === P('/webhooks') && a.status === 200)
        if (Array.isArray(events) && events.includes('order.paid')) a.status = 202;
    },
  },
  {
    name: 'service-version-header-meta-at-without-zone',
    statement: 'Meta: at | string, date-time | yes (a call that sends the Service-Version header)',
    answer(c, a) {
      // The versioned-response middleware rebuilds meta with the legacy reporting formatter (SQL style, no zone).
      home(c);
      const at = a.json.meta?.at;
      if (c.headers['service-version'] && typeof at === 'string') a.json.meta.at = sqlTime(at);
    },
  },
  {
    name: 'unknown-connector-check-failure-lacks-ok',
    statement:
      'Failure envelope (every error response): ok | boolean | yes | always false (a check naming a connector that does not exist)',
    answer(c, a) {
      // A catalog miss throws the framework's NotFound, whose serializer builds { error, meta } without ok.
      home(c);
      if (isCheck(c) && a.status === 404 && a.json.ok === false) delete a.json.ok;
    },
  },
  {
    name: 'second-tenant-catalog-idempotency-flag-as-text',
    statement: 'Capability: idempotencyRequired | boolean (the capability catalog read for the second tenant)',
    answer(c, a) {
      // The second tenant's catalog overrides come from a CSV import that kept the flags as text.
      const second = isSecond(c);
      if (!second || c.method !== 'GET' || c.path !== P('/capabilities')) return;
      for (const cap of (a.json.data?.capabilities ?? []) as Rec[])
        if (typeof cap?.idempotencyRequired === 'boolean') cap.idempotencyRequired = String(cap.idempotencyRequired);
    },
  },
  {
    name: 'connectors-capability-filter-drops-capabilities-field',
    statement: 'Connector: capabilities | array of string (a connector list filtered by capability)',
    answer(c, a) {
      // The capability filter runs as a join whose projection lists the connector columns but not the capability array.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/connectors') || !c.search.has('capability')) return;
      for (const con of (a.json.data?.connectors ?? []) as Rec[]) if (con) delete con.capabilities;
    },
  },
];
