import { z } from 'zod';
import type { RouteDef } from '../../simulator/contract/route-def.ts';

/** One request field that comes back in the answer: where it is sent and where the answer repeats it. */
export interface EchoPair {
  field: string;
  /** Path inside `data`, e.g. ['decision', 'connectorId']. */
  path: string[];
  /** A list of strings sent, answered as a list of objects: the property of each object that repeats an item. */
  itemKey?: string;
  /** The value the answer carries when the field is left out ("default sandbox"), if the contract says. */
  fallback?: string;
}

type Json = {
  type?: string;
  properties?: Record<string, Json>;
  items?: Json;
  $ref?: string;
  $defs?: Record<string, Json>;
};

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

function deref(node: Json | undefined, root: Json): Json | undefined {
  if (!node?.$ref) return node;
  return root.$defs?.[node.$ref.replace('#/$defs/', '')];
}

/** Paths (depth 1 or 2) of `data` that carry a property named `name`. */
function pathsOf(root: Json, name: string): { path: string[]; node: Json }[] {
  const out: { path: string[]; node: Json }[] = [];
  const top = deref(root, root)?.properties ?? {};
  for (const [k, v] of Object.entries(top)) {
    if (k === name) out.push({ path: [k], node: deref(v, root) ?? v });
    const inner = deref(v, root)?.properties?.[name];
    if (inner) out.push({ path: [k, name], node: deref(inner, root) ?? inner });
  }
  return out;
}

/**
 * The request body fields the contract's answer repeats, found by name in the route's data schema
 * (the interface's resources name them alike: a Connection repeats connectorId, environment,
 * scopeLabel and capabilities; a CapabilityDecision connectorId and capability).
 * @example echoPairs(ROUTE_BY_ID.get('checkCapability')!).map((p) => p.path.join('.'))
 * // ['decision.connectorId', 'decision.capability', 'environment']
 */
export function echoPairs(route: RouteDef): EchoPair[] {
  let pairs = cache.get(route.id);
  if (!pairs) {
    pairs = derivePairs(route);
    cache.set(route.id, pairs);
  }
  return pairs;
}

const cache = new Map<string, EchoPair[]>();

function derivePairs(route: RouteDef): EchoPair[] {
  if (!route.body || !route.data || route.fieldsNotShown) return [];
  const bodyRoot = z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) as Json;
  const data = z.toJSONSchema(route.data, { io: 'output', unrepresentable: 'any' }) as Json;
  const pairs: EchoPair[] = [];
  for (const [field, sent] of Object.entries(deref(bodyRoot, bodyRoot)?.properties ?? {})) {
    const fallback = /default (\w+)/i.exec((sent as { description?: string }).description ?? '')?.[1];
    for (const { path, node } of pathsOf(data, field)) {
      const itemKey =
        node.type === 'array' && deref(node.items, data)?.properties?.[singular(field)] ? singular(field) : undefined;
      pairs.push({ field, path, ...(itemKey ? { itemKey } : {}), ...(fallback ? { fallback } : {}) });
    }
  }
  return pairs;
}

const at = (data: unknown, path: string[]) =>
  path.reduce<unknown>(
    (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
    data,
  );

/**
 * What a 200 answer repeats differently from what was sent, one line per field; empty when all agree.
 * @example echoProblems(pairs, { connectorId: 'pos-1' }, { decision: { connectorId: 'pos-2' } })
 * // ['connectorId sent "pos-1", data.decision.connectorId "pos-2"']
 */
export function echoProblems(pairs: readonly EchoPair[], sent: Record<string, unknown>, data: unknown): string[] {
  const problems: string[] = [];
  for (const p of pairs) {
    // An explicit null for a field with a default, where the deployment took it (a refusal is as legal), is the
    // field left out: decoders that read null as absent (Swift's decodeIfPresent, pydantic's Optional) apply it.
    const given = p.field in sent && !(sent[p.field] === null && p.fallback !== undefined);
    const expected = given ? sent[p.field] : p.fallback;
    if (expected === undefined) continue;
    let observed = at(data, p.path);
    const itemKey = p.itemKey;
    if (itemKey && Array.isArray(observed))
      observed = observed.map((o) =>
        typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[itemKey] : o,
      );
    const same =
      Array.isArray(expected) && Array.isArray(observed)
        ? [...new Set(expected)].sort().join('\u0000') === [...new Set(observed)].sort().join('\u0000')
        : JSON.stringify(expected) === JSON.stringify(observed);
    if (!same)
      problems.push(
        `${p.field} ${given ? 'sent' : p.field in sent ? 'sent null (default)' : 'left out (default)'} ${JSON.stringify(expected)}, data.${p.path.join('.')} ${JSON.stringify(observed)}`,
      );
  }
  return problems;
}
