import { parse, stringify } from 'yaml';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { documentEdit, everyObject, type Node } from './document-edit.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

const OPENAPI = `${BASE_PATH}/openapi.json`;
const OPENAPI_YAML = `${BASE_PATH}/openapi.yaml`;
const CAPABILITIES = `${BASE_PATH}/capabilities`;
const STREAM = `${BASE_PATH}/stream`;
const CONNECTIONS = `${BASE_PATH}/connections`;
const CONNECTORS = `${BASE_PATH}/connectors`;
const KEYS = `${BASE_PATH}/idempotency-keys`;

const at = (value: unknown, ...keys: string[]): Node | undefined =>
  keys.reduce<unknown>((node, k) => (node && typeof node === 'object' ? (node as Node)[k] : undefined), value) as
    | Node
    | undefined;

/**
 * Violations where the deployment disagrees with itself: its description with its own operations, the
 * YAML file with the JSON, its document with what it serves, a listed record with its creation.
 */
export const CONSISTENCY_VIOLATIONS: Violation[] = [
  {
    name: 'openapi-operation-id-repeated',
    description: 'openapi.json documents POST /capabilities with the operationId of GET /capabilities',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.operation-ids-unique'],
    handle: documentEdit((doc) => {
      const item = at(doc, 'paths', CAPABILITIES);
      const get = at(item, 'get');
      const post = at(item, 'post');
      if (get && post) post.operationId = get.operationId;
    }),
  },
  {
    name: 'openapi-yaml-drops-production',
    description:
      'the YAML file of the description leaves production out of every enumeration (openapi.json still lists it)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.yaml-matches-json'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== OPENAPI_YAML || res.status !== 200 || res.body === undefined) return res;
      // Rendered from a template kept by hand, whose enumerations predate production.
      const doc = parse(res.body) as unknown;
      everyObject(doc, (node) => {
        if (Array.isArray(node.enum)) node.enum = node.enum.filter((v) => v !== 'production');
      });
      return { ...res, body: stringify(doc) };
    },
  },
  {
    name: 'openapi-stream-documented-as-json',
    description:
      "openapi.json documents the stream's 200 answer as application/json (it is served as text/event-stream)",
    section: 'Endpoints',
    catches: ['openapi.success-content-type'],
    handle: documentEdit((doc) => {
      const success = at(doc, 'paths', STREAM, 'get', 'responses', '200');
      if (success) success.content = { 'application/json': { schema: { type: 'object' } } };
    }),
  },
  {
    name: 'created-at-is-last-change',
    description:
      'GET /connections shows the time of the last state change as createdAt (it moves when a connection becomes active, about 2 s after creation)',
    section: 'Connection',
    catches: ['connections.created-at-stable'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== CONNECTIONS || res.status !== 200) return res;
      return editJson(res, (b) => {
        const list = b.data?.connections;
        // The simulator's record keeps updatedAt (its own addition): the time of the last state change.
        for (const c of Array.isArray(list) ? (list as Node[]) : [])
          if (typeof c.updatedAt === 'string') c.createdAt = c.updatedAt;
      });
    },
  },
  {
    name: 'second-tenant-provider-filter-ignored',
    description:
      "GET /connectors drops the providerId filter for every tenant but the first (the filter reads one tenant's settings)",
    section: 'GET /api/public/v1/connectors',
    catches: ['catalog.filters'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (req.path !== CONNECTORS || req.query.providerId === undefined || !tenant) return next(req);
      if (tenant === (await defaultAccess(core)).tenant) return next(req);
      const { providerId: _p, ...query } = req.query;
      return next({ ...req, query });
    },
  },
  {
    name: 'created-at-listed-300ms-later',
    description:
      'GET /connections shows createdAt 300 ms after the instant the creation answered (a list read from a store stamping its own time), both to the millisecond',
    section: 'Connection',
    catches: ['connections.created-at-stable'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== CONNECTIONS || res.status !== 200) return res;
      return editJson(res, (b) => {
        const list = b.data?.connections;
        for (const c of Array.isArray(list) ? (list as Node[]) : [])
          if (typeof c.createdAt === 'string') c.createdAt = new Date(Date.parse(c.createdAt) + 300).toISOString();
      });
    },
  },
  {
    name: 'created-at-from-key-issue',
    description:
      "a connection made with a key POST /idempotency-keys issued records the key's issue time as its createdAt (the row is filled from the key's reservation): its creation answer, replay and list entry all name that earlier instant",
    section: 'Connection',
    catches: ['connections.created-at-stable'],
    async handle(req, next, core) {
      const res = await next(req);
      const memo = issued.get(core) ?? { keys: new Map<string, string>(), made: new Map<string, string>() };
      issued.set(core, memo);
      if (res.status !== 200) return res;
      if (req.method === 'POST' && req.path === KEYS) {
        const b = JSON.parse(res.body ?? '{}') as { data?: { idempotencyKey?: unknown }; meta?: { at?: unknown } };
        if (typeof b.data?.idempotencyKey === 'string' && typeof b.meta?.at === 'string')
          memo.keys.set(b.data.idempotencyKey, b.meta.at);
        return res;
      }
      if (req.path !== CONNECTIONS) return res;
      const keyAt = memo.keys.get(req.headers['idempotency-key'] ?? '');
      return editJson(res, (b) => {
        const made = req.method === 'POST' ? [b.data as Node | undefined] : (b.data?.connections as Node[] | undefined);
        for (const c of made ?? []) {
          if (typeof c?.id !== 'string') continue;
          if (req.method === 'POST' && keyAt && !memo.made.has(c.id)) memo.made.set(c.id, keyAt);
          const stamped = memo.made.get(c.id);
          if (stamped) c.createdAt = stamped;
        }
      });
    },
  },
];

/** Per simulator: when each key POST /idempotency-keys issued was issued, and the connections made with one. */
const issued = new WeakMap<object, { keys: Map<string, string>; made: Map<string, string> }>();

/** The violations above that break the YAML file themselves: their YAML is not the JSON's. */
const OWN_YAML = new Set(['openapi-yaml-drops-production', 'alt-yaml-operation-max-40']);

/**
 * Checks of this file that other violations provoke too (they break what these compare), by violation:
 * a stream or JSON served as text/plain is not the media type openapi.json lists; a replay whose
 * createdAt moves on names another instant than the creation.
 */
const ALSO_CAUGHT: Record<string, readonly string[]> = {
  'stream-content-type-wrong': ['openapi.success-content-type'],
  'json-as-text-plain': ['openapi.success-content-type'],
  'replay-different-data': ['connections.created-at-stable'],
};

/**
 * A violation as a deployment would show it in both files of its description: a deployment renders its
 * YAML from the one description its JSON is, so a violation that edits openapi.json serves the same
 * edit as YAML (openapi.yaml-matches-json judges the two files, not what one edit of the JSON says). It
 * also names the checks of this file it provokes (ALSO_CAUGHT).
 * @example VIOLATIONS.map(describedInBothFormats)
 */
export function describedInBothFormats(v: Violation): Violation {
  const also = ALSO_CAUGHT[v.name] ?? [];
  const catches = [...v.catches, ...also.filter((c) => !v.catches.includes(c))];
  if (OWN_YAML.has(v.name)) return { ...v, catches };
  return {
    ...v,
    catches,
    async handle(req, next, core, base) {
      const res = await v.handle(req, next, core, base);
      if (req.method !== 'GET' || req.path !== OPENAPI_YAML || res.status !== 200) return res;
      // The same request for the JSON (same version query): the description the violation serves.
      const json = await v.handle({ ...req, path: OPENAPI }, next, core, base);
      if (json.status !== 200 || json.body === undefined) return res;
      try {
        return { ...res, body: yamlOf(json.body) };
      } catch {
        return res;
      }
    },
  };
}

/** The YAML of a JSON description, kept for the few last texts: a run reads the YAML again and again. */
function yamlOf(json: string): string {
  let yaml = yamlByJson.get(json);
  if (yaml === undefined) {
    yaml = stringify(JSON.parse(json));
    if (yamlByJson.size >= 8) yamlByJson.delete(yamlByJson.keys().next().value as string);
    yamlByJson.set(json, yaml);
  }
  return yaml;
}
const yamlByJson = new Map<string, string>();
