// Violations in one direction only, where a kit probing the other direction sees nothing: keys a creation at the
// alternate address stored where the main address does not look, keys of a later tenant searched for the first
// tenant's replays, a second filter dropped where it matches nothing, and a replay store counting bytes.
import { IDEMPOTENCY_KEY_PATTERN } from '../../simulator/contract/limits.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { PlainResponse } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { perCore } from './idempotency-violations.ts';
import { editJson, jsonBodyOf } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const CONNECTORS = `${BASE_PATH}/connectors`;
const mainKeys = perCore(() => new Set<string>());
const othersAnswers = perCore(() => new Map<string, { body: string; res: PlainResponse }>());
const FILTERS = ['capability', 'providerId', 'category'] as const;

/** The longest start of `text` that fits `bytes` bytes of UTF-8, whole characters only. */
const cutBytes = (text: string, bytes: number) => {
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(out + ch, 'utf8') > bytes) break;
    out += ch;
  }
  return out;
};

export const CROSSED_WRITE_VIOLATIONS: Violation[] = [
  {
    name: 'alt-made-keys-unknown-at-main',
    description:
      "the alternate address's gateway stores the keys of creations first made there under a name of its own (it finds the main address's keys, the main address never finds its): a creation made at the alternate address and sent again at the main one creates a second connection",
    section: 'POST /api/public/v1/connections',
    catches: ['generated.key-identity'],
    async handle(req, next, core, base) {
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || req.path !== CONNECTIONS || !key || !IDEMPOTENCY_KEY_PATTERN.test(key))
        return next(req);
      const tenantKey = `${req.headers['x-service-tenant'] ?? ''}\n${key}`;
      if (base === 'main') {
        mainKeys(core).add(tenantKey);
        return next(req);
      }
      if (mainKeys(core).has(tenantKey)) return next(req);
      const own = `${key.slice(0, 120)}.alt`;
      const res = await next({ ...req, headers: { ...req.headers, 'idempotency-key': own } });
      // The key echoed is the one sent (the gateway's own name stays inside).
      return editJson(res, (b) => {
        if (b.meta && (b.meta as { idempotencyKey?: unknown }).idempotencyKey === own)
          (b.meta as { idempotencyKey?: unknown }).idempotencyKey = key;
      });
    },
  },
  {
    name: 'first-tenant-replays-other-tenants-keys',
    description:
      "the replay lookup for the first tenant (the account's home tenant) searches every tenant's keys: the first tenant sending a key and body another tenant used first gets that tenant's connection, marked replayed",
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.tenant-scope'],
    async handle(req, next, core) {
      const key = req.headers['idempotency-key'];
      const tenant = req.headers['x-service-tenant'];
      if (req.method !== 'POST' || req.path !== CONNECTIONS || !key || !tenant) return next(req);
      const body = JSON.stringify(jsonBodyOf(req) ?? null);
      const home = (await defaultAccess(core)).tenant;
      const seen = othersAnswers(core).get(key);
      if (tenant === home && seen && seen.body === body)
        return editJson(seen.res, (b) => {
          if (b.meta) Object.assign(b.meta, { replayed: true, idempotencyKey: key });
        });
      const res = await next(req);
      if (tenant !== home && res.status === 200 && !seen) othersAnswers(core).set(key, { body, res });
      return res;
    },
  },
  {
    name: 'connectors-second-filter-matching-nothing-dropped',
    description:
      'GET /connectors with two filters drops one that matches nothing on its own ("no results" is treated as a typo): the list is filtered by the other alone',
    section: 'GET /api/public/v1/connectors',
    catches: ['catalog.filters'],
    async handle(req, next) {
      const given = FILTERS.filter((f) => typeof req.query[f] === 'string');
      if (req.method !== 'GET' || req.path !== CONNECTORS || given.length < 2) return next(req);
      const query = { ...req.query };
      for (const f of given) {
        const alone = await next({ ...req, query: { [f]: req.query[f] as string } });
        const empty = alone.body?.includes('"count":0') === true;
        if (empty) delete query[f];
      }
      return next({ ...req, query });
    },
  },
  {
    name: 'replay-cuts-label-at-255-bytes',
    description:
      "the replay store keeps the answer's scopeLabel in a VARCHAR(255) byte column: a replayed label of multi-byte letters longer than 255 bytes loses its tail",
    section: 'POST /api/public/v1/connections',
    // The replay is judged run-wide: its label is held to the one sent.
    catches: ['generated.request-echo'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== CONNECTIONS || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { scopeLabel?: unknown } | undefined;
        const replayed = (b.meta as { replayed?: unknown } | undefined)?.replayed === true;
        if (replayed && typeof data?.scopeLabel === 'string' && Buffer.byteLength(data.scopeLabel, 'utf8') > 255)
          data.scopeLabel = cutBytes(data.scopeLabel, 255);
      });
    },
  },
];
