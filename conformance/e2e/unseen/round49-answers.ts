import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, LISTS, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 49, part 1: answers that depend on the body's form, the query's form, a header's parameters, the place. */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
/** The query parameters each catalog read documents; anything else is unknown to the interface. */
const KNOWN_QUERY = new Set(['category', 'capability', 'providerId', 'version']);

export const ROUND49_ANSWERS: UnseenViolation[] = [
  {
    name: 'check-decision-fields-swapped-for-reordered-body',
    statement:
      'CapabilityDecision: connectorId | string; capability | string (a check body whose first key is capability)',
    answer(c, a) {
      // The fast path destructures Object.values(body) positionally, so a body in another key order swaps the two.
      home(c);
      const b = bodyOf(c.body);
      const d = a.json.data?.decision as Rec | undefined;
      if (!isCheck(c) || Object.keys(b)[0] !== 'capability' || !d) return;
      [d.connectorId, d.capability] = [d.capability, d.connectorId];
    },
  },
  {
    name: 'catalog-read-with-unknown-query-parameter-meta-lacks-version',
    statement: 'Meta: version | string | required: yes (a catalog read that carries an unknown query parameter)',
    answer(c, a) {
      // The strict query parser's fallback path builds a partial meta from the request context without the version.
      home(c);
      if (c.method !== 'GET' || !LISTS[c.path] || !a.json.meta) return;
      if ([...c.search.keys()].some((k) => !KNOWN_QUERY.has(k))) delete a.json.meta.version;
    },
  },
  {
    name: 'check-with-charset-param-reports-default-environment',
    statement:
      'POST /api/public/v1/capabilities: data: decision, environment (Environment) (a JSON body sent with a charset parameter)',
    answer(c, a) {
      // A Content-Type with parameters goes to the text parser, whose re-parse keeps only the required fields.
      home(c);
      const env = bodyOf(c.body).environment;
      if (!isCheck(c) || !(c.headers['content-type'] ?? '').includes(';') || a.status !== 200) return;
      if (typeof env === 'string' && env !== 'sandbox' && a.json.data) a.json.data.environment = 'sandbox';
    },
  },
  {
    name: 'second-tenant-connections-data-tenant-is-home',
    statement: 'GET /api/public/v1/connections: data: tenant (string), connections of the tenant (the second tenant)',
    answer(c, a) {
      // The list handler reads the tenant name from the token's first tenant instead of the header.
      const second = isSecond(c);
      const first = home(c);
      if (second && isList(c) && a.json.data && first) a.json.data.tenant = first;
    },
  },
  {
    name: 'alt-replay-meta-replayed-as-string',
    statement:
      'Meta: replayed | boolean | true when the response comes from an earlier operation (a replay under {alt_base_url})',
    answer(c, a) {
      // The alternate address's replay cache stores meta as header strings and never converts them back.
      home(c);
      if (c.base === 'alt' && c.method === 'POST' && a.json.meta?.replayed === true) a.json.meta.replayed = 'true';
    },
  },
  {
    name: 'alt-catalog-count-as-string',
    statement: 'GET /api/public/v1/providers, connectors, capabilities: data: count (integer) (under {alt_base_url})',
    answer(c, a) {
      // The alternate region's database driver returns COUNT(*) as a bigint string.
      home(c);
      const d = a.json.data as Rec | undefined;
      if (c.base === 'alt' && c.method === 'GET' && LISTS[c.path] && c.path !== P('/connections') && d)
        if (typeof d.count === 'number') d.count = String(d.count);
    },
  },
  {
    name: 'padded-scope-label-trimmed-in-list',
    statement:
      'Connection: scopeLabel | string | descriptive name (a label with surrounding blanks: created as sent, listed trimmed)',
    answer(c, a) {
      // The list reads a normalised search column; the creation answer echoes the stored original.
      home(c);
      if (!isList(c)) return;
      for (const conn of (a.json.data?.connections ?? []) as Rec[])
        if (typeof conn?.scopeLabel === 'string') conn.scopeLabel = conn.scopeLabel.trim();
    },
  },
  {
    name: 'catalog-filter-with-capitals-dropped',
    statement:
      'GET /api/public/v1/providers: category | restricts to one category; GET /api/public/v1/connectors: capability, providerId, category (a filter value with capitals or blanks)',
    request(c) {
      // The slug sanitiser drops filter values that are not lower-case slugs instead of matching them (so nothing is filtered).
      home(c);
      if (c.method !== 'GET' || (c.path !== P('/providers') && c.path !== P('/connectors'))) return undefined;
      for (const k of ['category', 'capability', 'providerId']) {
        const v = c.search.get(k);
        if (v !== null && /[A-Z\s]/.test(v)) c.search.delete(k);
      }
      return undefined;
    },
  },
];
