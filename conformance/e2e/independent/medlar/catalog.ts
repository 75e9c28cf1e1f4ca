// The seeded catalog (a Prisma seed in the original): providers, connectors and capabilities with nanoid-free
// slugs as ids, and the capability decision.
import type { Environment } from './util.ts';

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  createdAt: string;
}

export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  environments: Environment[];
}

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

const SEEDED_AT = '2026-05-04T08:00:00.000Z';
const ALL: Environment[] = ['development', 'sandbox', 'pilot', 'production'];

export class Catalog {
  readonly providers: Provider[] = [
    {
      id: 'kassensturz',
      name: 'Kassensturz POS',
      category: 'pos',
      summary: 'Point of sale for restaurants',
      createdAt: SEEDED_AT,
    },
    {
      id: 'lieferfix',
      name: 'Lieferfix',
      category: 'delivery',
      summary: 'Delivery platform orders',
      createdAt: SEEDED_AT,
    },
    {
      id: 'zahlwerk',
      name: 'Zahlwerk Payments',
      category: 'payments',
      summary: 'Card and wallet payments',
      createdAt: SEEDED_AT,
    },
  ];

  readonly capabilities: Capability[] = [
    { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
    { id: 'orders.create', label: 'Create orders', critical: true, idempotencyRequired: true },
    { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
    { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
    { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  ];

  readonly connectors: Connector[] = [
    {
      id: 'kassensturz-orders',
      providerId: 'kassensturz',
      name: 'Kassensturz orders',
      category: 'pos',
      capabilities: ['orders.read', 'orders.create', 'menu.sync'],
      environments: ALL,
    },
    {
      id: 'lieferfix-orders',
      providerId: 'lieferfix',
      name: 'Lieferfix orders',
      category: 'delivery',
      capabilities: ['orders.read', 'menu.sync'],
      environments: ALL,
    },
    {
      id: 'zahlwerk-payments',
      providerId: 'zahlwerk',
      name: 'Zahlwerk payments',
      category: 'payments',
      capabilities: ['payments.capture', 'payments.refund'],
      environments: ['sandbox', 'pilot', 'production'],
    },
  ];

  capability(id: string): Capability | undefined {
    return this.capabilities.find((c) => c.id === id);
  }

  connector(id: string): Connector | undefined {
    return this.connectors.find((c) => c.id === id);
  }

  /** The decision for one connector, capability and environment (the connector exists). */
  decide(connector: Connector, capability: string, env: Environment) {
    const cap = this.capability(capability);
    const offered = connector.capabilities.includes(capability);
    const inEnv = connector.environments.includes(env);
    const allowed = Boolean(cap) && offered && inEnv;
    const reason = !cap
      ? 'capability_unknown: the capability is not in the catalog'
      : !offered
        ? 'capability_not_offered: the connector does not offer this capability'
        : !inEnv
          ? `environment_unavailable: the connector is not available in ${env}`
          : 'capability_offered: the connector offers this capability';
    return {
      connectorId: connector.id,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    };
  }
}
