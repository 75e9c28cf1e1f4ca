import { CURRENT_VERSION } from '../../../simulator/contract/versions.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 12 of the unseen violations, part 1: answers wrong in one detail — a not-found envelope that
 * still says ok, a version with a "v" in front on refusals, validation messages as a list, a replay
 * that wraps its connection or stamps it anew, production spelled short, capability entries keyed
 * `id`, the development environment echoed as "dev", and success answers without `ok` under the earlier version.
 */
type Rec = Record<string, any>;
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');

export const ROUND12_ANSWERS: UnseenViolation[] = [
  {
    name: 'not-found-envelope-ok-true',
    statement: 'Failure envelope (every error response): ok | boolean | yes | always false',
    answer(_c, a) {
      // The 404 handler is shared with the static-file router, which builds its body from the success template.
      if (a.status === 404 && a.json.ok === false) a.json.ok = true;
    },
  },
  {
    name: 'failure-meta-version-v-prefixed',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version (refusals too)',
    answer(_c, a) {
      // The error middleware reads the version from the router's mount label ("v2026-07-01").
      const v = a.json.meta?.version;
      if (a.status >= 400 && a.status < 500 && typeof v === 'string' && /^\d/.test(v)) a.json.meta.version = `v${v}`;
    },
  },
  {
    name: 'invalid-request-message-as-list',
    statement: 'Failure envelope: error.message | string | yes',
    answer(_c, a) {
      // The validator's issue list is passed straight through as the message.
      const e = a.json.error;
      if (a.status === 400 && e && typeof e.message === 'string')
        e.message = [e.message, ...(typeof e.detail === 'string' ? [e.detail] : [])];
    },
  },
  {
    name: 'replay-data-wrapped',
    statement:
      'POST /api/public/v1/connections: data: the Connection. Sending the same key with the same content returns the same response again',
    answer(c, a) {
      // The idempotency cache stores the handler's internal result object ({ connection }) rather than the body.
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed === true && a.json.data?.id)
        a.json.data = { connection: a.json.data };
    },
  },
  {
    name: 'replay-created-at-refreshed',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (the same Connection, createdAt included)',
    answer(c, a) {
      // The replay path re-serialises the cached row through the "new record" mapper, which stamps createdAt.
      if (
        isCreate(c) &&
        a.status === 200 &&
        a.json.meta?.replayed === true &&
        typeof a.json.data?.createdAt === 'string'
      )
        a.json.data.createdAt = new Date(Date.now() + 1000).toISOString();
    },
  },
  {
    name: 'production-connection-environment-abbreviated',
    statement: 'Connection: environment | Environment (development, sandbox, pilot, production)',
    answer(c, a) {
      // The storage column holds "prod" and the serializer forgets to map it back.
      const fix = (x: Rec) => {
        if (x && x.environment === 'production') x.environment = 'prod';
      };
      if (isCreate(c) && a.status === 200 && a.json.data) fix(a.json.data);
      if (isList(c) && Array.isArray(a.json.data?.connections)) for (const x of a.json.data.connections) fix(x);
    },
  },
  {
    name: 'listed-capability-entries-keyed-id',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    answer(c, a) {
      // The list query joins the capability table and its `id` column shadows the entry's `capability`.
      if (!isList(c) || !Array.isArray(a.json.data?.connections)) return;
      for (const x of a.json.data.connections as Rec[])
        if (Array.isArray(x.capabilities) && x.capabilities.length > 1)
          x.capabilities = x.capabilities.map(({ capability, ...rest }: Rec) => ({ id: capability, ...rest }));
    },
  },
  {
    name: 'development-check-echoes-dev',
    statement:
      'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment: development, sandbox, pilot, production)',
    answer(c, a) {
      // The check echoes the environment through the config loader's short profile name.
      if (isCheck(c) && a.status === 200 && a.json.data?.environment === 'development') a.json.data.environment = 'dev';
    },
  },
  {
    name: 'earlier-version-success-without-ok',
    statement: 'Success envelope (every JSON success response): ok | boolean | yes | always true',
    answer(c, a) {
      // The compatibility layer for 2026-06-12 strips fields it believes were added in 2026-07-01, `ok` among them.
      const asked = c.headers['service-version'];
      if (asked && asked !== CURRENT_VERSION && a.status === 200 && a.json.ok === true) delete a.json.ok;
    },
  },
];
