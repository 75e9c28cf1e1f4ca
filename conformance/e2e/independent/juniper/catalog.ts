// The catalog (providers, connectors, capabilities) and the id formats. A Rails team keeps the catalog as
// seed data with slug ids; records it creates get a type prefix and 24 lowercase hex characters.
import { randomBytes, randomUUID } from 'node:crypto';
import type { CapabilityEntry } from './types.ts';

export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
export const newUuid = (): string => randomUUID();
// Rails' Time#iso8601(3): millisecond precision, "Z" in UTC or the offset of the configured Time.zone.
// One offset per process (the zone is application configuration).
let offsetMinutes = 0;
export const setUtcOffset = (minutes: number) => {
  offsetMinutes = minutes;
};
export function nowIso(ms: number = Date.now()): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
}
// A record written at `iso` is on the read replica once the replica lag has passed.
export const onReplica = (iso: string, lagMs: number): boolean => lagMs === 0 || Date.parse(iso) + lagMs <= Date.now();

export type Provider = { id: string; name: string; category: string; summary: string; country: string };
export type Connector = {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  status: string;
};
export type Capability = {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
};

export const providers: Provider[] = [
  {
    id: 'tidepool-pay',
    name: 'Tidepool Pay',
    category: 'payments',
    summary: 'Card and wallet payments',
    country: 'NL',
  },
  { id: 'larder-pos', name: 'Larder POS', category: 'point-of-sale', summary: 'Tills for restaurants', country: 'DE' },
  { id: 'swift-courier', name: 'Swift Courier', category: 'delivery', summary: 'Last-mile delivery', country: 'AT' },
  { id: 'ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping and invoices', country: 'CH' },
  { id: 'bookatable-io', name: 'Bookatable IO', category: 'reservations', summary: 'Table bookings', country: 'FR' },
];

export const capabilities: Capability[] = [
  {
    id: 'payments.authorize',
    label: 'Authorize payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Reserve an amount on a card',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Collect a reserved amount',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Return collected money',
  },
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'Read orders of a venue',
  },
  {
    id: 'orders.write',
    label: 'Write orders',
    critical: false,
    idempotencyRequired: true,
    description: 'Create and change orders',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: false,
    description: 'Push menu changes',
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Book a courier',
  },
  {
    id: 'invoices.export',
    label: 'Export invoices',
    critical: false,
    idempotencyRequired: false,
    description: 'Send invoices to bookkeeping',
  },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'Read table bookings',
  },
];

export const connectors: Connector[] = [
  {
    id: 'tidepool-pay-terminal',
    providerId: 'tidepool-pay',
    name: 'Tidepool terminal',
    category: 'payments',
    capabilities: ['payments.authorize', 'payments.capture', 'payments.refund'],
    status: 'available',
  },
  {
    id: 'tidepool-pay-online',
    providerId: 'tidepool-pay',
    name: 'Tidepool online checkout',
    category: 'payments',
    capabilities: ['payments.authorize', 'payments.capture'],
    status: 'available',
  },
  {
    id: 'larder-pos-cloud',
    providerId: 'larder-pos',
    name: 'Larder cloud till',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'available',
  },
  {
    id: 'swift-courier-api',
    providerId: 'swift-courier',
    name: 'Swift courier API',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.read'],
    status: 'available',
  },
  {
    id: 'ledgerly-export',
    providerId: 'ledgerly',
    name: 'Ledgerly export',
    category: 'accounting',
    capabilities: ['invoices.export'],
    status: 'available',
  },
  {
    id: 'bookatable-io-sync',
    providerId: 'bookatable-io',
    name: 'Bookatable sync',
    category: 'reservations',
    capabilities: ['reservations.read', 'menu.sync'],
    status: 'beta',
  },
];

export const findCapability = (id: string): Capability | undefined => capabilities.find((c) => c.id === id);
export const findConnector = (id: string): Connector | undefined => connectors.find((c) => c.id === id);

// A connection's capability entry repeats the catalog's flags (the same in catalog, decisions, connections).
export function capabilityEntry(id: string): CapabilityEntry {
  const cap = findCapability(id);
  return { capability: id, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? true };
}
