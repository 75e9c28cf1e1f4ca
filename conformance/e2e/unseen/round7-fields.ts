import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 7 of the unseen violations, part 2 (partial): fields renamed, retyped or left out only on
 * one path — a defaulted environment, a replay, the route table.
 */
type Rec = Record<string, unknown>;
const isCheck = (c: { method: string; path: string }) => c.method === 'POST' && c.path === P('/capabilities');
const noEnvironment = (body: unknown) => !body || typeof body !== 'object' || (body as Rec).environment === undefined;

export const ROUND7_FIELDS: UnseenViolation[] = [
  {
    name: 'defaulted-check-renames-capability',
    statement: 'CapabilityDecision (all fields required): capability | string',
    answer(c, a) {
      // The default-environment path builds the decision from the catalog row and keeps its key name.
      const d = a.json.data?.decision as Rec | undefined;
      if (!isCheck(c) || a.status !== 200 || !d || !noEnvironment(c.body)) return;
      d.capabilityId = d.capability;
      delete d.capability;
    },
  },
  {
    name: 'defaulted-check-omits-environment',
    statement: 'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment)',
    answer(c, a) {
      // The environment is only echoed when the caller named one.
      if (isCheck(c) && a.status === 200 && a.json.data && noEnvironment(c.body)) delete a.json.data.environment;
    },
  },
  {
    name: 'replayed-flag-as-string',
    statement: 'Meta: replayed | boolean | no | true when the response comes from an earlier identical operation',
    answer(_c, a) {
      // The replay marker is copied from a stored header value.
      if (a.json.meta && a.json.meta.replayed === true) a.json.meta.replayed = 'true';
    },
  },
  {
    name: 'route-auth-as-word',
    statement: 'RouteInfo: auth | boolean',
    answer(c, a) {
      // The route table reuses the endpoint table's wording ("public" / "yes").
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200) return;
      for (const r of (a.json.data?.routes ?? []) as Rec[]) r.auth = r.auth ? 'yes' : 'public';
    },
  },
];
