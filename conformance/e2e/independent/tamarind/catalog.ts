// The invented sandbox catalog, as the seed script of the Flask app loads it. Catalog records keep
// human-readable slugs as ids (they are referenced across environments), unlike the integer ids of the
// tables tenants write to; the fields the contract does not name are snake_case like every column.

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  scope_group: string;
}

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  homepage_url: string;
  is_sandbox_only: boolean;
}

export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  api_style: string;
  release_channel: string;
}

export const CAPABILITIES: readonly Capability[] = [
  { id: 'menu.read', label: 'Read the menu', critical: false, idempotencyRequired: false, scope_group: 'menu' },
  {
    id: 'menu.publish',
    label: 'Publish menu changes',
    critical: false,
    idempotencyRequired: true,
    scope_group: 'menu',
  },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, scope_group: 'orders' },
  { id: 'orders.accept', label: 'Accept orders', critical: true, idempotencyRequired: true, scope_group: 'orders' },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    scope_group: 'payments',
  },
  {
    id: 'reservations.sync',
    label: 'Synchronise reservations',
    critical: false,
    idempotencyRequired: true,
    scope_group: 'reservations',
  },
];

export const PROVIDERS: readonly Provider[] = [
  {
    id: 'tillwave',
    name: 'Tillwave POS',
    category: 'pos',
    summary: 'Invented point-of-sale system for sandbox tests',
    homepage_url: 'https://tillwave.example',
    is_sandbox_only: true,
  },
  {
    id: 'paykettle',
    name: 'PayKettle',
    category: 'payments',
    summary: 'Invented payment processor for sandbox tests',
    homepage_url: 'https://paykettle.example',
    is_sandbox_only: true,
  },
  {
    id: 'tablenook',
    name: 'TableNook',
    category: 'reservations',
    summary: 'Invented table reservation platform',
    homepage_url: 'https://tablenook.example',
    is_sandbox_only: true,
  },
];

export const CONNECTORS: readonly Connector[] = [
  {
    id: 'tillwave-orders',
    providerId: 'tillwave',
    name: 'Tillwave order bridge',
    category: 'pos',
    capabilities: ['orders.read', 'orders.accept', 'menu.read'],
    api_style: 'rest',
    release_channel: 'stable',
  },
  {
    id: 'tillwave-menu',
    providerId: 'tillwave',
    name: 'Tillwave menu sync',
    category: 'pos',
    capabilities: ['menu.read', 'menu.publish'],
    api_style: 'rest',
    release_channel: 'beta',
  },
  {
    id: 'paykettle-capture',
    providerId: 'paykettle',
    name: 'PayKettle capture',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
    api_style: 'rest',
    release_channel: 'stable',
  },
  {
    id: 'tablenook-sync',
    providerId: 'tablenook',
    name: 'TableNook reservation sync',
    category: 'reservations',
    capabilities: ['reservations.sync'],
    api_style: 'graphql',
    release_channel: 'stable',
  },
];

export const capabilityById = (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string): Connector | undefined => CONNECTORS.find((c) => c.id === id);
