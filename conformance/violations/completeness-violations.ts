// Violations that show only once a list has grown or is read another way: a delivery log that stops recording
// after a receiver's eighth delivery, an audit log whose older pages skip the entry beside the boundary, and a
// filter the earlier version's handler reads under another name. One read of a short list shows none of them.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { PlainResponse } from '../../simulator/index.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const AUDIT = `${BASE_PATH}/audit-log`;
/** The delivery log's per-receiver quota of the broken writer. */
const LOGGED_AT_MOST = 8;
/** Per sandbox: the refusals of the delivery log served to earlier-version callers, by tenant and path. */
/** Per sandbox: the receivers registered by callers of 2026-06-12. */
const legacyReceivers = new WeakMap<object, Set<string>>();
const refusedLogs = new WeakMap<object, Map<string, { at: number; res: PlainResponse }>>();

export const COMPLETENESS_VIOLATIONS: Violation[] = [
  {
    name: 'delivery-log-stops-after-eight',
    description:
      "the delivery log's writer checks the receiver's slot quota of the redelivery queue (8) and skips the insert when it is full: a receiver's log lists its first eight deliveries only",
    section: 'Webhooks',
    catches: ['webhooks.delivery-log-complete'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || !LOG.test(req.path) || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { deliveries?: { createdAt?: string }[]; count?: number } | undefined;
        if (!Array.isArray(data?.deliveries)) return;
        const order = [...data.deliveries].sort((x, y) => String(x.createdAt).localeCompare(String(y.createdAt)));
        const kept = new Set(order.slice(0, LOGGED_AT_MOST));
        data.deliveries = data.deliveries.filter((d) => kept.has(d));
        data.count = data.deliveries.length;
      });
    },
  },
  {
    name: 'audit-older-page-skips-boundary-entry',
    description:
      'the audit repository treats the before cursor as exclusive and the handler subtracts one more (seq < before - 1): each older page skips the entry next to its boundary',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.pages-agree'],
    handle(req, next) {
      const before = req.query.before;
      if (req.method !== 'GET' || req.path !== AUDIT || typeof before !== 'string' || !/^\d+$/.test(before))
        return next(req);
      return next({ ...req, query: { ...req.query, before: String(Math.max(0, Number(before) - 1)) } });
    },
  },
  {
    name: 'earlier-version-category-filter-ignored',
    description:
      "GET /providers for a caller naming Service-Version 2026-06-12 ignores ?category=: that version's handler reads filter[category], the name of its first draft",
    section: 'GET /api/public/v1/providers',
    catches: ['catalog.filters'],
    handle(req, next) {
      if (
        req.method !== 'GET' ||
        req.path !== `${BASE_PATH}/providers` ||
        req.headers['service-version'] !== '2026-06-12'
      )
        return next(req);
      const { category: _category, ...query } = req.query;
      return next({ ...req, query });
    },
  },
  {
    name: 'delivery-log-refusal-cached-across-versions',
    description:
      'the edge cache keys delivery-log answers by path and tenant, not by Service-Version: for five seconds after a 2026-06-12 caller was refused a log (404), a current caller reading it gets that refusal',
    section: 'Versioning',
    catches: ['versions.delivery-log-since-current'],
    // The cached refusal keeps its meta.at, behind answers sent before it once seconds have passed.
    mayCatch: ['envelope.meta-at-in-order'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'GET' || !LOG.test(req.path)) return res;
      const slot = `${req.headers['x-service-tenant'] ?? ''} ${req.path}`;
      const cache = refusedLogs.get(core) ?? new Map<string, { at: number; res: PlainResponse }>();
      refusedLogs.set(core, cache);
      if (req.headers['service-version'] === '2026-06-12') {
        if (res.status === 404) cache.set(slot, { at: Date.now(), res });
        return res;
      }
      const hit = cache.get(slot);
      return hit && Date.now() - hit.at < 5000 ? hit.res : res;
    },
  },
  {
    name: 'earlier-registered-receivers-unlogged',
    description:
      'receivers registered by callers of 2026-06-12 live in the legacy table, whose dispatcher never writes delivery-log rows: their deliveries arrive, but their log lists none',
    section: 'Webhooks',
    catches: ['webhooks.delivery-log-forms'],
    async handle(req, next, core) {
      const res = await next(req);
      const legacy = legacyReceivers.get(core) ?? new Set<string>();
      legacyReceivers.set(core, legacy);
      if (req.method === 'POST' && req.path === `${BASE_PATH}/webhooks` && res.status === 200) {
        if (req.headers['service-version'] === '2026-06-12')
          editJson(res, (b) => {
            const id = (b.data as { id?: unknown } | undefined)?.id;
            if (typeof id === 'string') legacy.add(id);
          });
        return res;
      }
      const id = req.method === 'GET' ? LOG.exec(req.path)?.[1] : undefined;
      if (!id || !legacy.has(decodeURIComponent(id)) || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { deliveries?: unknown[]; count?: number } | undefined;
        if (!Array.isArray(data?.deliveries)) return;
        data.deliveries = [];
        if (typeof data.count === 'number') data.count = 0;
      });
    },
  },
];
