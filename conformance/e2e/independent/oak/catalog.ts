// The catalog (seeded like a Laravel DatabaseSeeder) and its three reads. Capability ids are resource/action
// pairs with a slash, as the team names its Passport scopes.
import type { Call } from './http-kit.ts';
import { sendError, sendOk } from './http-kit.ts';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const CAPABILITIES: Capability[] = [
  { id: 'orders/read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders/write', label: 'Create and update orders', critical: true, idempotencyRequired: true },
  { id: 'menu/read', label: 'Read the menu', critical: false, idempotencyRequired: false },
  { id: 'menu/sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
  { id: 'payments/capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'reservations/read', label: 'Read table reservations', critical: false, idempotencyRequired: false },
];

export const PROVIDERS = [
  {
    id: 'tillpoint',
    name: 'Tillpoint',
    category: 'pos',
    summary: 'Cloud point of sale for restaurants.',
    country: 'NL',
  },
  {
    id: 'payharbor',
    name: 'PayHarbor',
    category: 'payments',
    summary: 'Card and wallet payments at the table.',
    country: 'DE',
  },
  {
    id: 'tablebook',
    name: 'TableBook',
    category: 'reservations',
    summary: 'Online table reservations.',
    country: 'BE',
  },
];

export const CONNECTORS = [
  {
    id: 'tillpoint-orders',
    providerId: 'tillpoint',
    name: 'Tillpoint Orders',
    category: 'pos',
    capabilities: ['orders/read', 'orders/write', 'menu/read', 'menu/sync'],
  },
  {
    id: 'tillpoint-menu',
    providerId: 'tillpoint',
    name: 'Tillpoint Menu',
    category: 'pos',
    capabilities: ['menu/read', 'menu/sync'],
  },
  {
    id: 'payharbor-terminal',
    providerId: 'payharbor',
    name: 'PayHarbor Terminal',
    category: 'payments',
    capabilities: ['payments/capture', 'orders/read'],
  },
  {
    id: 'tablebook-sync',
    providerId: 'tablebook',
    name: 'TableBook Sync',
    category: 'reservations',
    capabilities: ['reservations/read'],
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connectorById(id: string) {
  return CONNECTORS.find((c) => c.id === id);
}

/** Query filters are optional strings; sent twice or empty, they are refused rather than guessed at. */
function filter(call: Call, names: string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of names) {
    const all = call.query.getAll(name);
    if (all.length === 0) continue;
    if (all.length > 1 || all[0] === '') {
      sendError(
        call,
        'invalid_request',
        `The ${name} filter must be one non-empty string.`,
        `Query parameter ${name} was sent ${all.length > 1 ? 'twice' : 'empty'}.`,
      );
      return undefined;
    }
    out[name] = all[0] ?? '';
  }
  return out;
}

export function listProviders(call: Call): void {
  const f = filter(call, ['category']);
  if (!f) return;
  const providers = PROVIDERS.filter((p) => f.category === undefined || p.category === f.category);
  sendOk(call, { count: providers.length, providers });
}

export function listConnectors(call: Call): void {
  const f = filter(call, ['capability', 'providerId', 'category']);
  if (!f) return;
  const connectors = CONNECTORS.filter(
    (c) =>
      (f.capability === undefined || c.capabilities.includes(f.capability)) &&
      (f.providerId === undefined || c.providerId === f.providerId) &&
      (f.category === undefined || c.category === f.category),
  );
  sendOk(call, { count: connectors.length, connectors });
}

export function listCapabilities(call: Call): void {
  sendOk(call, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
}
