// Hornbeam's catalog: a few edge providers, their connectors and the capabilities they book.
// Ids are kebab-case slugs (stable across deploys, unlike the ULIDs of what tenants create).

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  scope: string;
}

export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  region: string;
}

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  homepage: string;
}

export const CAPABILITIES: Capability[] = [
  { id: 'menu.read', label: 'Read the menu', critical: false, idempotencyRequired: false, scope: 'read' },
  { id: 'menu.publish', label: 'Publish the menu', critical: false, idempotencyRequired: true, scope: 'write' },
  { id: 'order.receive', label: 'Receive orders', critical: true, idempotencyRequired: true, scope: 'write' },
  { id: 'order.status', label: 'Report order status', critical: false, idempotencyRequired: false, scope: 'read' },
  { id: 'payment.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, scope: 'write' },
  { id: 'payment.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, scope: 'write' },
  { id: 'table.book', label: 'Book tables', critical: false, idempotencyRequired: true, scope: 'write' },
  { id: 'stock.sync', label: 'Synchronise stock', critical: false, idempotencyRequired: false, scope: 'read' },
];

export const PROVIDERS: Provider[] = [
  {
    id: 'gridtill',
    name: 'GridTill',
    category: 'pos',
    summary: 'Point of sale at the edge',
    homepage: 'https://gridtill.example',
  },
  {
    id: 'parcelwing',
    name: 'ParcelWing',
    category: 'delivery',
    summary: 'Delivery platform with live order status',
    homepage: 'https://parcelwing.example',
  },
  {
    id: 'coinlane',
    name: 'CoinLane',
    category: 'payments',
    summary: 'Card and wallet payments',
    homepage: 'https://coinlane.example',
  },
  {
    id: 'seatfox',
    name: 'SeatFox',
    category: 'reservations',
    summary: 'Table reservations',
    homepage: 'https://seatfox.example',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'gridtill-edge-pos',
    providerId: 'gridtill',
    name: 'GridTill Edge POS',
    category: 'pos',
    capabilities: ['menu.read', 'menu.publish', 'order.receive', 'stock.sync'],
    region: 'eu',
  },
  {
    id: 'gridtill-kiosk',
    providerId: 'gridtill',
    name: 'GridTill Kiosk',
    category: 'pos',
    capabilities: ['menu.read', 'order.receive'],
    region: 'eu',
  },
  {
    id: 'parcelwing-dispatch',
    providerId: 'parcelwing',
    name: 'ParcelWing Dispatch',
    category: 'delivery',
    capabilities: ['order.receive', 'order.status', 'menu.read'],
    region: 'global',
  },
  {
    id: 'coinlane-checkout',
    providerId: 'coinlane',
    name: 'CoinLane Checkout',
    category: 'payments',
    capabilities: ['payment.capture', 'payment.refund'],
    region: 'eu',
  },
  {
    id: 'seatfox-tables',
    providerId: 'seatfox',
    name: 'SeatFox Tables',
    category: 'reservations',
    capabilities: ['table.book'],
    region: 'eu',
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
