// cedar's invented catalog: a freight and parcel network (carriers, marketplaces, payments, warehouses).
import { seededId } from './ids.ts';

export type Provider = { id: string; name: string; category: string; summary: string; region: string };
export type Connector = {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  status: string;
};
export type Capability = { id: string; label: string; critical: boolean; idempotencyRequired: boolean; domain: string };

export const CAPABILITIES: Capability[] = [
  { id: 'shipments.create', label: 'Create shipments', critical: true, idempotencyRequired: true, domain: 'shipping' },
  { id: 'shipments.track', label: 'Track shipments', critical: false, idempotencyRequired: false, domain: 'shipping' },
  { id: 'labels.print', label: 'Print labels', critical: false, idempotencyRequired: true, domain: 'shipping' },
  { id: 'rates.quote', label: 'Quote rates', critical: false, idempotencyRequired: false, domain: 'shipping' },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, domain: 'money' },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, domain: 'money' },
  { id: 'inventory.sync', label: 'Synchronise stock', critical: false, idempotencyRequired: false, domain: 'stock' },
  { id: 'returns.authorize', label: 'Authorise returns', critical: true, idempotencyRequired: true, domain: 'stock' },
];

const P = (name: string, category: string, summary: string, region: string): Provider => ({
  id: seededId('prv', name),
  name,
  category,
  summary,
  region,
});
export const PROVIDERS: Provider[] = [
  P('Fjordline Parcel', 'carrier', 'Invented parcel carrier for the northern test region', 'north'),
  P('Quayside Freight', 'carrier', 'Invented pallet and freight forwarder', 'west'),
  P('Bazaarloop', 'marketplace', 'Invented online marketplace for test orders', 'global'),
  P('Tallypay', 'payments', 'Invented payment processor with test cards only', 'global'),
  P('Stackhouse Depots', 'warehouse', 'Invented fulfilment warehouses', 'south'),
];

const byName = (name: string): string => PROVIDERS.find((p) => p.name === name)?.id ?? '';
const C = (name: string, provider: string, capabilities: string[]): Connector => {
  const providerId = byName(provider);
  const category = PROVIDERS.find((p) => p.id === providerId)?.category ?? 'other';
  return { id: seededId('cnr', name), providerId, name, category, capabilities, status: 'available' };
};
export const CONNECTORS: Connector[] = [
  C('Fjordline REST v3', 'Fjordline Parcel', ['shipments.create', 'shipments.track', 'labels.print', 'rates.quote']),
  C('Fjordline Tracking Feed', 'Fjordline Parcel', ['shipments.track']),
  C('Quayside EDI Bridge', 'Quayside Freight', ['shipments.create', 'rates.quote']),
  C('Bazaarloop Seller API', 'Bazaarloop', ['inventory.sync', 'returns.authorize', 'payments.refund']),
  C('Tallypay Gateway', 'Tallypay', ['payments.capture', 'payments.refund']),
  C('Stackhouse WMS', 'Stackhouse Depots', ['inventory.sync', 'returns.authorize', 'labels.print']),
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
