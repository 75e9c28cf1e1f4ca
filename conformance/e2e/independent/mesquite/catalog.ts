// The invented catalog: three providers of a restaurant network, their connectors and the capabilities
// they offer (Ballerina `final readonly & Provider[]` constants).
import type { Rec } from './state.ts';

export const PROVIDERS: Rec[] = [
  {
    id: 'northwind-pay',
    name: 'Northwind Pay',
    category: 'payments',
    summary: 'Card and wallet acquiring',
    country: 'DE',
  },
  { id: 'tablefox', name: 'TableFox', category: 'reservations', summary: 'Table booking and waitlists', country: 'AT' },
  {
    id: 'kitchen-relay',
    name: 'Kitchen Relay',
    category: 'ordering',
    summary: 'Order routing to kitchen displays',
    country: 'CH',
  },
];

export const CAPABILITIES: Rec[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: false, idempotencyRequired: true },
  { id: 'orders.receive', label: 'Receive orders', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'northwind-pay-terminal',
    providerId: 'northwind-pay',
    name: 'Northwind Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'tablefox-bookings',
    providerId: 'tablefox',
    name: 'TableFox Bookings',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'kitchen-relay-orders',
    providerId: 'kitchen-relay',
    name: 'Kitchen Relay Orders',
    category: 'ordering',
    capabilities: ['orders.receive', 'menu.sync'],
  },
  {
    id: 'tablefox-suite',
    providerId: 'tablefox',
    name: 'TableFox Suite',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write', 'menu.sync'],
  },
];
