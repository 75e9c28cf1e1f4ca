// Basswood's invented catalog (seed data of the `providers`, `connectors` and `capabilities` tables): slugs
// as ids (friendly_id), since connectorId and capability must be 2 to 120 characters long.
import type { Rec } from './state.ts';

export function createCatalog(): { providers: Rec[]; connectors: Rec[]; capabilities: Rec[] } {
  const cap = (id: string, label: string, critical: boolean, idem: boolean) => ({
    id,
    label,
    critical,
    idempotencyRequired: idem,
    description: `${label} through the connector`,
  });
  return {
    providers: [
      { id: 'tillpoint', name: 'Tillpoint', category: 'pos', summary: 'Point of sale for small venues', country: 'DE' },
      { id: 'paywave', name: 'Paywave', category: 'payments', summary: 'Card and wallet acquiring', country: 'NL' },
      { id: 'tablebook', name: 'Tablebook', category: 'reservations', summary: 'Table reservations', country: 'AT' },
    ],
    connectors: [
      {
        id: 'tillpoint-orders',
        providerId: 'tillpoint',
        name: 'Tillpoint Orders',
        category: 'pos',
        capabilities: ['orders.read', 'orders.write', 'menu.sync'],
      },
      {
        id: 'paywave-checkout',
        providerId: 'paywave',
        name: 'Paywave Checkout',
        category: 'payments',
        capabilities: ['payments.capture', 'payments.refund'],
      },
      {
        id: 'tablebook-sync',
        providerId: 'tablebook',
        name: 'Tablebook Sync',
        category: 'reservations',
        capabilities: ['reservations.read'],
      },
    ],
    capabilities: [
      cap('orders.read', 'Read orders', false, false),
      cap('orders.write', 'Write orders', true, true),
      cap('menu.sync', 'Synchronise the menu', false, true),
      cap('payments.capture', 'Capture payments', true, true),
      cap('payments.refund', 'Refund payments', true, true),
      cap('reservations.read', 'Read reservations', false, false),
    ],
  };
}
