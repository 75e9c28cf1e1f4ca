// The seeded catalog, clients and tenants. Ids are UUIDs (API Platform's Uuid identifiers); every record also
// carries its IRI under "@id", as API Platform renders resources.
export const API = '/api/public/v1';
export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  /** Environments where the capability is not released (a yarrow field, shown as "restrictedIn"). */
  restrictedIn: string[];
}

const cap = (id: string, label: string, critical: boolean, idem: boolean, restrictedIn: string[] = []) => ({
  id,
  label,
  critical,
  idempotencyRequired: idem,
  restrictedIn,
});

export const CAPABILITIES: Capability[] = [
  cap('orders.read', 'Read orders', false, false),
  cap('orders.write', 'Create and update orders', true, true),
  cap('menu.sync', 'Synchronise the menu', false, true),
  cap('payments.capture', 'Capture payments', true, true, ['development']),
  cap('payments.refund', 'Refund payments', true, true, ['development', 'sandbox']),
  cap('tables.reserve', 'Reserve tables', false, true),
  cap('inventory.read', 'Read stock levels', false, false),
];

export const PROVIDERS: { id: string; name: string; category: string; summary: string }[] = [
  {
    id: '0b6f6c1e-5d1a-4c0e-9a59-3f1f0d7a2a01',
    name: 'Tillhaus POS',
    category: 'pos',
    summary: 'Point of sale for restaurants',
  },
  {
    id: '0b6f6c1e-5d1a-4c0e-9a59-3f1f0d7a2a02',
    name: 'Paywise',
    category: 'payments',
    summary: 'Card payments and refunds',
  },
  {
    id: '0b6f6c1e-5d1a-4c0e-9a59-3f1f0d7a2a03',
    name: 'Tablely',
    category: 'reservations',
    summary: 'Table reservations',
  },
  { id: '0b6f6c1e-5d1a-4c0e-9a59-3f1f0d7a2a04', name: 'Stockroom', category: 'inventory', summary: 'Stock keeping' },
];

const providerId = (i: number) => `0b6f6c1e-5d1a-4c0e-9a59-3f1f0d7a2a0${i}`;
export const CONNECTORS: { id: string; providerId: string; name: string; category: string; capabilities: string[] }[] =
  [
    {
      id: '7c1d2e3f-0000-4a6b-8c9d-000000000001',
      providerId: providerId(1),
      name: 'Tillhaus Orders',
      category: 'pos',
      capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    },
    {
      id: '7c1d2e3f-0000-4a6b-8c9d-000000000002',
      providerId: providerId(2),
      name: 'Paywise Checkout',
      category: 'payments',
      capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
    },
    {
      id: '7c1d2e3f-0000-4a6b-8c9d-000000000003',
      providerId: providerId(3),
      name: 'Tablely Bookings',
      category: 'reservations',
      capabilities: ['tables.reserve'],
    },
    {
      id: '7c1d2e3f-0000-4a6b-8c9d-000000000004',
      providerId: providerId(4),
      name: 'Stockroom Levels',
      category: 'inventory',
      capabilities: ['inventory.read', 'menu.sync'],
    },
  ];

export const CLIENT_ID = 'yarrow-integration';
export const CLIENT_SECRET = 'yarrow-sandbox-secret-5e21c9d0a7b34f68';
export const TENANT = 'bistro-lindenhof';
export const OTHER_TENANT = 'cafe-am-markt';
/** Exists, but the client is not released for it: 403. */
export const FOREIGN_TENANT = 'brasserie-nord';
export const CLIENT_TENANTS = [TENANT, OTHER_TENANT];
export const EVENT_NAMES = ['connection.provisioned', 'connection.activated', 'order.created', 'order.paid'];

type Provider = (typeof PROVIDERS)[number];
type Connector = (typeof CONNECTORS)[number];
const iri = (kind: string, id: string) => `${API}/${kind}/${id}`;
export const providerView = (p: Provider) => ({ '@id': iri('providers', p.id), '@type': 'Provider', ...p });
export const connectorView = (c: Connector) => ({ '@id': iri('connectors', c.id), '@type': 'Connector', ...c });
export const capabilityView = (c: Capability) => ({ '@id': iri('capabilities', c.id), '@type': 'Capability', ...c });
export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
