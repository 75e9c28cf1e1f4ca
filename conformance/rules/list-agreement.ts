import type { RouteDef } from '../../simulator/contract/route-def.ts';
import type { Exchange } from '../client/http-client.ts';
import { echoPairs } from './echo-rules.ts';

/**
 * A run-wide rule over the connections the kit created: every later GET /connections of the same
 * tenant that lists one repeats what the creation answered for the fields the client sent (the
 * contract's echo pairs) and createdAt (the same instant, to the second), and no other tenant's list names it
 * ("a tenant creates connections"; GET /connections: "connections of the tenant").
 */
export interface Routed {
  ex: Exchange;
  route: RouteDef;
}
type Record_ = Record<string, unknown>;

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
const instant = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);

/** The sent fields' values as a comparable text (a list of objects by its item key, as a sorted list). */
function echoed(con: Record_, create: RouteDef): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of echoPairs(create)) {
    const value = con[pair.path[pair.path.length - 1] ?? pair.field];
    const items = Array.isArray(value) && pair.itemKey ? value.map((i) => (i as Record_)?.[pair.itemKey ?? '']) : value;
    out[pair.field] = JSON.stringify(Array.isArray(items) ? [...items].map(String).sort() : items);
  }
  return out;
}

/**
 * The problems of a run's exchanges (in the order they were made); empty when every list agrees.
 * @example listAgreementProblems([{ ex: creation, route: create }, { ex: list, route: listRoute }]) // []
 */
export function listAgreementProblems(exchanges: readonly Routed[]): { problem: string; ex: Exchange }[] {
  // Per id, one creation per tenant: ids may be counted per tenant ("Format of identifiers ...: not shown").
  const created = new Map<string, { tenant: string; fields: Record<string, string>; at: number }[]>();
  const problems: { problem: string; ex: Exchange }[] = [];
  const labels = labelledCreations(exchanges);
  for (const { ex, route } of exchanges) {
    if (ex.status !== 200) continue;
    const data = (ex.json as { data?: Record_ } | undefined)?.data;
    const tenant = header(ex.requestHeaders, 'x-service-tenant') ?? '';
    // Ids are per collection ("Format of identifiers: not shown"): a receiver and a connection may both be "1".
    if (route.method === 'POST' && route.idempotent && typeof data?.id === 'string' && 'createdAt' in data) {
      const key = `${route.path} ${data.id}`;
      const made = created.get(key) ?? [];
      if (!made.some((c) => c.tenant === tenant))
        created.set(key, [...made, { tenant, fields: echoed(data, route), at: instant(data.createdAt) }]);
      continue;
    }
    const list = route.method === 'GET' ? Object.values(data ?? {}).find(Array.isArray) : undefined;
    if (!list) continue;
    const create = createRouteFor(route, exchanges);
    for (const entry of list as Record_[]) {
      const made = typeof entry?.id === 'string' && create ? created.get(`${create.path} ${entry.id}`) : undefined;
      // Not one of the kit's connections, yet named with the label the kit gave one of them: a copy.
      const original =
        !made && typeof entry?.scopeLabel === 'string' ? labels.get(`${tenant} ${entry.scopeLabel}`) : undefined;
      if (original && original.id !== String(entry?.id))
        problems.push({
          problem: `lists ${String(entry.id)} (${String(entry.environment)}), which the kit never created, with the scopeLabel of its connection ${original.id} (${original.environment}): a copy of the tenant's connection`,
          ex,
        });
      if (!made || !create) continue;
      const now = echoed(entry, create);
      const first = made.find((c) => c.tenant === tenant);
      if (!first) {
        // Another tenant's creation under this id: a leak when the entry is that creation (its fields, the
        // run's own labels among them), not a connection of this tenant that has the same id.
        const theirs = made.find((c) => Object.keys(c.fields).every((k) => now[k] === c.fields[k]));
        if (theirs)
          problems.push({ problem: `lists ${entry.id}, created for tenant ${theirs.tenant}, to tenant ${tenant}`, ex });
        continue;
      }
      const differs = Object.keys(first.fields).filter((k) => now[k] !== first.fields[k]);
      // The same instant; a store may keep whole seconds where the creation answer had milliseconds.
      if (!Number.isNaN(first.at) && !(Math.abs(instant(entry.createdAt) - first.at) < 1000)) differs.push('createdAt');
      if (differs.length)
        problems.push({
          problem: `lists ${entry.id} with ${differs.map((k) => `${k} ${now[k] ?? JSON.stringify(entry[k])} (created with ${first.fields[k] ?? new Date(first.at).toISOString()})`).join(', ')}`,
          ex,
        });
    }
  }
  return problems;
}

/** The kit's own labels: made for one run, never a sample value another connection may share. */
const KIT_LABEL = /^ncs-conformance-/;

/**
 * Per tenant and kit label, the one connection created under it: labels sent in exactly one creation that
 * was answered (a label sent twice, or a creation whose answer was lost, may name a connection the kit
 * never saw created).
 */
function labelledCreations(exchanges: readonly Routed[]): Map<string, { id: string; environment: string }> {
  const sent = new Map<string, number>();
  const answered = new Map<string, { id: string; environment: string }>();
  for (const { ex, route } of exchanges) {
    if (ex.method !== 'POST' || !route.idempotent || !ex.requestBody) continue;
    let label: unknown;
    try {
      label = (JSON.parse(ex.requestBody) as { scopeLabel?: unknown })?.scopeLabel;
    } catch {
      continue;
    }
    if (typeof label !== 'string' || !KIT_LABEL.test(label)) continue;
    const key = `${header(ex.requestHeaders, 'x-service-tenant') ?? ''} ${label}`;
    sent.set(key, (sent.get(key) ?? 0) + 1);
    const data = (ex.json as { data?: Record_ } | undefined)?.data;
    if (ex.status === 200 && typeof data?.id === 'string')
      answered.set(key, { id: data.id, environment: String(data.environment) });
  }
  return new Map([...answered].filter(([key]) => sent.get(key) === 1));
}

/** The creation route whose collection this list reads (same path, POST, idempotent). */
function createRouteFor(list: RouteDef, exchanges: readonly Routed[]): RouteDef | undefined {
  return exchanges.find((e) => e.route.method === 'POST' && e.route.idempotent && e.route.path === list.path)?.route;
}
