// cassia's invented catalog: a few providers of a hospitality network, their connectors and capabilities.
import type { Rec } from './state.ts';

export const PROVIDERS: Rec[] = [
  {
    id: 'prv-tillwise',
    name: 'Tillwise POS',
    category: 'pos',
    summary: 'Point of sale for small venues',
    region: 'eu',
  },
  { id: 'prv-couriero', name: 'Couriero', category: 'delivery', summary: 'Same-day courier network', region: 'eu' },
  { id: 'prv-ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping and invoices', region: 'eu' },
];

export const CAPABILITIES: Rec[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menu', critical: false, idempotencyRequired: true },
  { id: 'payouts.read', label: 'Read payouts', critical: true, idempotencyRequired: false },
  { id: 'dispatch.request', label: 'Request a courier', critical: true, idempotencyRequired: true },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'cnr-tillwise-orders',
    providerId: 'prv-tillwise',
    name: 'Tillwise orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'cnr-couriero-dispatch',
    providerId: 'prv-couriero',
    name: 'Couriero dispatch',
    category: 'delivery',
    capabilities: ['dispatch.request', 'orders.read'],
  },
  {
    id: 'cnr-ledgerly-books',
    providerId: 'prv-ledgerly',
    name: 'Ledgerly books',
    category: 'accounting',
    capabilities: ['payouts.read'],
  },
];

export const capability = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connector = (id: string) => CONNECTORS.find((c) => c.id === id);
