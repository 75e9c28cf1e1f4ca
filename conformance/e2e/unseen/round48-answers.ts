import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, EARLIER, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 48, part 1: answers that depend on the order of calls, the time in the run, sizes, characters, negotiation. */
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});
/** Milliseconds since the violation's first call (one clock per target). */
const sinceStart = (c: ProxyCall) => {
  if (!c.memory.has('r48-start')) c.memory.set('r48-start', Date.now());
  return Date.now() - (c.memory.get('r48-start') as number);
};
const connections = (a: { json: Rec }) => a.json.data?.connections as Rec[] | undefined;

export const ROUND48_ANSWERS: UnseenViolation[] = [
  {
    name: 'meta-version-earlier-after-config-reload',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (calls after the first seconds)',
    answer(c, a) {
      // The config watcher's first reload (2 s in) picks the version from a stale environment file of the earlier release.
      home(c);
      if (sinceStart(c) > 2_000 && a.json.meta?.version === CURRENT) a.json.meta.version = EARLIER;
    },
  },
  {
    name: 'request-id-of-first-429-reused-after',
    statement: 'Meta: requestId | string | identifier of this call (every call after the first rate_limited answer)',
    answer(c, a) {
      // The retry middleware keeps the meta of the first 429 in a module variable and merges it into later answers.
      home(c);
      const stuck = c.memory.get('r48-429-id') as string | undefined;
      if (a.status === 429 && stuck === undefined && a.json.meta) c.memory.set('r48-429-id', a.json.meta.requestId);
      else if (stuck !== undefined && a.json.meta) a.json.meta.requestId = stuck;
    },
  },
  {
    name: 'listed-scope-label-quotes-backslash-escaped',
    statement: 'Connection: scopeLabel | string | descriptive name (a label with double quotes, as listed)',
    answer(c, a) {
      // The list query builds JSON in SQL and escapes quotes once more than the creation path does.
      home(c);
      if (isList(c))
        for (const conn of connections(a) ?? [])
          if (typeof conn?.scopeLabel === 'string') conn.scopeLabel = conn.scopeLabel.replaceAll('"', '\\"');
    },
  },
  {
    name: 'replay-after-connections-read-lacks-idempotency-key',
    statement:
      'POST /api/public/v1/connections: the same key returns the same response again, with meta.replayed true and meta.idempotencyKey set (a replay right after a list read)',
    answer(c, a) {
      // The list handler resets the request-scoped context, and the next replay reads its key from it.
      home(c);
      const afterList = c.memory.get('r48-after-list') === true;
      c.memory.set('r48-after-list', isList(c));
      if (isCreate(c) && afterList && a.json.meta?.replayed === true) delete a.json.meta.idempotencyKey;
    },
  },
  {
    name: 'connection-beyond-twentieth-listed-as-sandbox',
    statement: 'Connection: environment | Environment (list entries past the twentieth)',
    answer(c, a) {
      // Page two of the list is read from a replica view that lacks the environment column and defaults it.
      home(c);
      if (isList(c)) for (const conn of (connections(a) ?? []).slice(20)) if (conn) conn.environment = 'sandbox';
    },
  },
  {
    name: 'alt-check-without-environment-reports-development',
    statement:
      'POST /api/public/v1/capabilities: environment | no | Environment; default sandbox (a check without environment under {alt_base_url})',
    answer(c, a) {
      // The alternate address runs with NODE_ENV=development, which the default resolver reads first.
      home(c);
      if (c.base === 'alt' && isCheck(c) && bodyOf(c.body).environment === undefined && a.json.data?.environment)
        a.json.data.environment = 'development';
    },
  },
  {
    name: 'alt-connections-count-stale-after-creation',
    statement:
      'GET /api/public/v1/connections: data: count (integer), connections (the list read under {alt_base_url} right after a creation)',
    answer(c, a) {
      // The alternate address caches the count for a while and only the rows are read fresh.
      home(c);
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed !== true) c.memory.set('r48-alt-created', true);
      const d = a.json.data as Rec | undefined;
      if (c.base !== 'alt' || !isList(c) || typeof d?.count !== 'number' || !c.memory.get('r48-alt-created')) return;
      c.memory.set('r48-alt-created', false);
      d.count = Math.max(0, d.count - 1);
    },
  },
  {
    name: 'second-tenant-list-right-after-creation-omits-it',
    statement:
      'GET /api/public/v1/connections: connections of the tenant (the second tenant’s list read right after its creation)',
    answer(c, a) {
      // The second tenant's shard is read from an async replica that has not caught up with the write.
      const second = isSecond(c);
      if (second && isCreate(c) && a.status === 200) c.memory.set('r48-second-new', a.json.data?.id);
      const id = c.memory.get('r48-second-new');
      const d = a.json.data as Rec | undefined;
      if (!second || !isList(c) || id === undefined || !Array.isArray(d?.connections)) return;
      c.memory.delete('r48-second-new');
      d.connections = (d.connections as Rec[]).filter((conn) => conn?.id !== id);
      d.count = d.connections.length;
    },
  },
  {
    name: 'earlier-version-replay-new-connection-id',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 compatibility adapter re-maps stored rows and mints a fresh public id on the way out.
      home(c);
      if (isCreate(c) && earlier(c) && a.json.meta?.replayed === true && typeof a.json.data?.id === 'string')
        a.json.data.id = `${a.json.data.id}-r`;
    },
  },
  {
    name: 'accept-any-meta-lacks-at',
    statement: 'Meta: at | string, date-time | required: yes (a call sent with Accept: */* only)',
    answer(c, a) {
      // A bare */* falls through to the legacy serializer, which never learnt the at field.
      home(c);
      if ((c.headers.accept ?? '').trim() === '*/*' && c.method === 'GET' && a.json.meta) delete a.json.meta.at;
    },
  },
];
