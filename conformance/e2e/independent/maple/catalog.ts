// maple's invented sandbox catalog (the interface shows the record fields, not the data).
export const providers = [
  { id: 'payflow', name: 'PayFlow', category: 'payments', summary: 'Card and wallet payments' },
  { id: 'tablebook', name: 'TableBook', category: 'reservations', summary: 'Table reservations' },
  { id: 'kitchenlink', name: 'KitchenLink', category: 'orders', summary: 'Kitchen order routing' },
];

export const capabilities = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: false, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.sync', label: 'Synchronise orders', critical: true, idempotencyRequired: true },
];

export const connectors = [
  {
    id: 'payflow-terminal',
    providerId: 'payflow',
    name: 'PayFlow Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'payflow-online',
    providerId: 'payflow',
    name: 'PayFlow Online',
    category: 'payments',
    capabilities: ['payments.capture'],
  },
  {
    id: 'tablebook-api',
    providerId: 'tablebook',
    name: 'TableBook API',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'kitchenlink-display',
    providerId: 'kitchenlink',
    name: 'KitchenLink Display',
    category: 'orders',
    capabilities: ['orders.read', 'orders.sync'],
  },
];

export function capabilityById(id: string) {
  return capabilities.find((c) => c.id === id);
}

export function connectorById(id: string) {
  return connectors.find((c) => c.id === id);
}
