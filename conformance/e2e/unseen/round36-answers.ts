import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, LISTS, P } from './proxy-helpers.ts';

/**
 * Round 36 of the unseen violations, part 1: answers — key conflicts reporting the earlier version, 428
 * answers with an unzoned time, a second tenant's key conflicts coded as capability_denied, later 429s
 * without Retry-After, alternate connectors without a category, a second tenant's listed connections
 * without nextStep, venue names with curled quotes, and a second tenant's failures without a message.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const codeOf = (a: { json: Rec }) => a.json.error?.code as string | undefined;

export const ROUND36_ANSWERS: UnseenViolation[] = [
  {
    name: 'conflict-answer-reports-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (an idempotency_conflict answer too)',
    answer(c, a) {
      // The conflict path still builds its envelope with the constant from the 2026-06-12 release that added keys.
      home(c);
      if (
        a.status === 409 &&
        codeOf(a) === 'idempotency_conflict' &&
        a.json.meta &&
        c.headers['service-version'] !== '2026-06-12'
      )
        a.json.meta.version = '2026-06-12';
    },
  },
  {
    name: 'idempotency-required-meta-at-unzoned',
    statement: 'Meta: at | string, date-time | yes (the 428 idempotency_required answer too)',
    answer(c, a) {
      // The key-check middleware runs before the clock service and formats its own local time without a zone.
      home(c);
      const at = a.json.meta?.at;
      if (a.status === 428 && typeof at === 'string') a.json.meta.at = at.replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '');
    },
  },
  {
    name: 'second-tenant-key-conflict-coded-capability-denied',
    statement:
      'Errors: idempotency_conflict | 409 | same idempotency key with different content (a second tenant’s conflict too)',
    answer(c, a) {
      // The second tenant's region maps every 409 of its policy layer to one code.
      const second = isSecond(c);
      if (second && a.status === 409 && codeOf(a) === 'idempotency_conflict') a.json.error.code = 'capability_denied';
    },
  },
  {
    name: 'later-rate-limited-answers-lack-retry-after',
    statement:
      'Limits: Response headers: … Retry-After (recommended wait in seconds); When exceeded, the service answers 429 with a wait time (every 429, not only the first)',
    answer(c, a) {
      // The gateway computes the wait only when the window first overflows; later refusals reuse a cached answer.
      home(c);
      if (a.status !== 429) return;
      const n = ((c.memory.get('r36-429s') as number | undefined) ?? 0) + 1;
      c.memory.set('r36-429s', n);
      if (n > 1) delete a.headers['retry-after'];
    },
  },
  {
    name: 'alt-connectors-category-null',
    statement: 'Connector: category | string (the connector list under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's connector view joins categories with a LEFT JOIN on a table it never filled.
      home(c);
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      for (const x of (a.json.data?.connectors ?? []) as Rec[]) if (x && typeof x === 'object') x.category = null;
    },
  },
  {
    name: 'second-tenant-listed-connections-lack-next-step',
    statement: 'Connection: nextStep | string (a second tenant’s connection list too)',
    answer(c, a) {
      // The second tenant's list is read from a reporting replica that has no nextStep column.
      const second = isSecond(c);
      if (!second || c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      for (const x of (a.json.data?.connections ?? []) as Rec[]) if (x && typeof x === 'object') delete x.nextStep;
    },
  },
  {
    name: 'scope-label-straight-quotes-curled',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue (served as the client sent it, quotes included)',
    answer(c, a) {
      // A "typography" filter of the CMS-backed venue store turns straight quotes into typographic ones.
      home(c);
      const curl = (x: Rec) => {
        if (x && typeof x.scopeLabel === 'string')
          x.scopeLabel = x.scopeLabel.replace(/'/g, '\u2019').replace(/"(.*?)"/g, '\u201c$1\u201d');
      };
      if (a.status !== 200) return;
      if (isCreate(c) && a.json.data) curl(a.json.data);
      if (c.method === 'GET' && LISTS[c.path] === 'connections')
        for (const x of (a.json.data?.connections ?? []) as Rec[]) curl(x);
    },
  },
  {
    name: 'second-tenant-errors-lack-message',
    statement: 'Failure envelope: error.message | string | yes (a second tenant’s failures too)',
    answer(c, a) {
      // Messages come from a locale catalogue; the second tenant's locale has no entries, and undefined is dropped.
      const second = isSecond(c);
      if (second && a.status >= 400 && a.json.error && typeof a.json.error === 'object') delete a.json.error.message;
    },
  },
];
