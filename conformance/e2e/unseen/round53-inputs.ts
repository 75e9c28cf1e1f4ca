import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';

/** Round 53, part 2: request state that leaks from one call into the next: filters, checks, creations, audit pages. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const recent = (at: unknown, ms = 3000) => typeof at === 'number' && Date.now() - at < ms;

export const ROUND53_INPUTS: UnseenViolation[] = [
  {
    name: 'connectors-provider-filter-served-from-previous-filter',
    statement:
      'GET /api/public/v1/connectors: providerId | string | no (a read filtered by a second provider right after one filtered by another)',
    request(c) {
      // The query cache is keyed on the parameter name only, so a new providerId value reads the previous one's entry.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/connectors')) return undefined;
      const id = c.search.get('providerId');
      const prev = c.memory.get('r53-provider') as { id: string; at: number } | undefined;
      if (!id) return undefined;
      if (prev && prev.id !== id && recent(prev.at)) c.search.set('providerId', prev.id);
      else c.memory.set('r53-provider', { id, at: Date.now() });
      return undefined;
    },
  },
  {
    name: 'quick-second-creation-inherits-first-capabilities',
    statement:
      'What the service does: A connection binds a connector to an environment and a set of capabilities; POST /connections: capabilities (a creation within three seconds of the tenant’s previous creation)',
    request(c) {
      // A "repeat last setup" convenience merges the previous body under the new one, and arrays are taken from the old side.
      home(c);
      if (!isCreate(c)) return undefined;
      const b = bodyOf(c.body);
      const prev = c.memory.get('r53-prev-create') as { caps: unknown; at: number; key?: string } | undefined;
      const key = c.headers['idempotency-key'];
      if (prev && prev.key !== key && recent(prev.at) && Array.isArray(b.capabilities))
        c.body = { ...b, capabilities: prev.caps };
      else c.memory.set('r53-prev-create', { caps: b.capabilities, at: Date.now(), key });
      return undefined;
    },
  },
  {
    name: 'check-after-creation-defaults-to-its-environment',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox (a check without environment after a creation in another environment)',
    request(c) {
      // The session keeps the "current environment" of the last creation, and the check handler falls back to it.
      home(c);
      const b = bodyOf(c.body);
      if (isCreate(c) && typeof b.environment === 'string') c.memory.set('r53-env', b.environment);
      if (c.method === 'POST' && c.path === P('/capabilities') && c.body && b.environment === undefined) {
        const env = c.memory.get('r53-env');
        if (typeof env === 'string') c.body = { ...b, environment: env };
      }
      return undefined;
    },
  },
  {
    name: 'category-filter-sticks-to-next-provider-read',
    statement:
      'GET /api/public/v1/providers: category | no | restricts to one category (an unfiltered read right after a filtered one)',
    request(c) {
      // The list component keeps its last filter in a shared default-parameters object, which the next read inherits.
      home(c);
      if (c.method !== 'GET' || c.path !== P('/providers')) return undefined;
      const cat = c.search.get('category');
      const prev = c.memory.get('r53-sticky') as { cat: string; at: number } | undefined;
      if (cat) c.memory.set('r53-sticky', { cat, at: Date.now() });
      else if (prev && recent(prev.at)) c.search.set('category', prev.cat);
      return undefined;
    },
  },
  {
    name: 'connectors-read-after-check-filtered-by-checked-capability',
    statement:
      'GET /api/public/v1/connectors: capability | string | no (an unfiltered connector read right after a capability check)',
    request(c) {
      // The check stores its capability in a request-scoped filter holder that leaks into the next catalog query.
      home(c);
      const b = bodyOf(c.body);
      if (c.method === 'POST' && c.path === P('/capabilities') && typeof b.capability === 'string')
        c.memory.set('r53-checked', { cap: b.capability, at: Date.now() });
      if (c.method !== 'GET' || c.path !== P('/connectors') || c.search.has('capability')) return undefined;
      const prev = c.memory.get('r53-checked') as { cap: string; at: number } | undefined;
      if (prev && recent(prev.at)) {
        c.search.set('capability', prev.cap);
        c.memory.delete('r53-checked');
      }
      return undefined;
    },
  },
  {
    name: 'creation-after-check-binds-checked-connector',
    statement:
      'What the service does: A connection binds a connector to an environment; POST /connections: connectorId (a creation right after a check of another connector)',
    request(c) {
      // The wizard-style backend pre-selects the connector of the last check and lets it win over the body.
      home(c);
      const b = bodyOf(c.body);
      if (c.method === 'POST' && c.path === P('/capabilities') && typeof b.connectorId === 'string')
        c.memory.set('r53-check-con', { id: b.connectorId, at: Date.now() });
      const prev = c.memory.get('r53-check-con') as { id: string; at: number } | undefined;
      if (isCreate(c) && prev && recent(prev.at) && typeof b.connectorId === 'string' && b.connectorId !== prev.id)
        c.body = { ...b, connectorId: prev.id };
      return undefined;
    },
  },
  {
    name: 'audit-limit-of-first-read-reused',
    statement:
      'GET /api/public/v1/audit-log: Query: limit (number of entries) (a read with a larger limit after a first read with a smaller one)',
    request(c) {
      // The page size is bound once per tenant when the audit cursor is first opened, and later limits are ignored.
      const tenant = home(c);
      if (c.method !== 'GET' || c.path !== P('/audit-log')) return undefined;
      const key = `r53-limit:${tenant}:${c.headers['x-service-tenant']}`;
      const first = c.memory.get(key) as string | undefined;
      const limit = c.search.get('limit');
      if (first === undefined) {
        if (limit) c.memory.set(key, limit);
      } else if (limit) c.search.set('limit', first);
      return undefined;
    },
  },
];
