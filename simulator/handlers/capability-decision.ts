import type { Environment } from '../contract/environment.ts';
import type { CapabilityDecision } from '../contract/catalog.ts';
import type { CatalogStore } from '../state/catalog-store.ts';
import { must } from '../lib/invariant.ts';

/** A tenant's connection as far as capability decisions care (filled in by the connections store). */
export interface DecisionConnection {
  state: string;
  capabilities: string[];
}

/**
 * The decision table of POST /capabilities, in the order the rules are tried (first match wins).
 * The README's "Capability decisions" table is this list.
 */
export const DECISION_RULES = [
  { reason: 'unknown_capability', text: 'the capability is not in the catalog' },
  { reason: 'not_offered', text: 'the connector does not offer the capability' },
  { reason: 'restricted_in_environment', text: 'the capability is not released for the connector in this environment' },
  { reason: 'connection_revoked', text: "the tenant's connection to the connector is revoked" },
  { reason: 'connection_paused', text: "the tenant's connection to the connector is paused" },
  { reason: 'not_booked', text: "the capability is not booked on the tenant's connection to the connector" },
  { reason: 'allowed', text: 'the connector offers the capability in this environment' },
] as const;

const textOf = (reason: (typeof DECISION_RULES)[number]['reason']) =>
  must(
    DECISION_RULES.find((r) => r.reason === reason),
    'DECISION_RULES has a rule for every reason',
  ).text;

/**
 * Decides whether `capability` may be used on `connectorId` in `environment` for a tenant whose
 * connections to that connector are `connections` (empty when it has none yet). The connector must exist.
 * @example decideCapability(catalog, { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read', environment: 'sandbox' }, [])
 */
export function decideCapability(
  catalog: CatalogStore,
  q: { connectorId: string; capability: string; environment: Environment },
  connections: DecisionConnection[],
): CapabilityDecision {
  const connector = must(catalog.connector(q.connectorId), 'decideCapability is called for a known connector');
  const cap = catalog.capability(q.capability);
  const decision = (allowed: boolean, reason: (typeof DECISION_RULES)[number]['reason']): CapabilityDecision => ({
    connectorId: q.connectorId,
    capability: q.capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: `${reason}: ${textOf(reason)}`,
  });
  if (!cap) return decision(false, 'unknown_capability');
  if (!connector.capabilities.includes(q.capability)) return decision(false, 'not_offered');
  if (connector.restrictedIn?.[q.environment]?.includes(q.capability))
    return decision(false, 'restricted_in_environment');
  if (connections.length > 0) {
    const live = connections.filter((c) => c.state !== 'revoked');
    if (live.length === 0) return decision(false, 'connection_revoked');
    const unpaused = live.filter((c) => c.state !== 'paused');
    if (unpaused.length === 0) return decision(false, 'connection_paused');
    if (!unpaused.some((c) => c.capabilities.includes(q.capability))) return decision(false, 'not_booked');
  }
  return decision(true, 'allowed');
}
