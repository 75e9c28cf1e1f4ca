// The fixed catalog: numeric (long) ids rendered as strings, capability ids as Java enum constants.
export type Provider = { id: string; name: string; category: string; summary: string; country: string };
export type Connector = {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  version: string;
};
export type Capability = {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
};

export const PROVIDERS: Provider[] = [
  {
    id: '1001',
    name: 'Kassensturz POS',
    category: 'POS',
    summary: 'Point-of-sale terminals for restaurants',
    country: 'DE',
  },
  { id: '1002', name: 'Zahlwerk Payments', category: 'PAYMENTS', summary: 'Card acquiring and payouts', country: 'AT' },
  { id: '1003', name: 'Lieferfix', category: 'DELIVERY', summary: 'Delivery platform aggregation', country: 'CH' },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'MENU_READ',
    label: 'Read the menu',
    critical: false,
    idempotencyRequired: false,
    description: 'Reads menu items and prices',
  },
  {
    id: 'ORDER_CREATE',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Places an order',
  },
  {
    id: 'ORDER_STATUS',
    label: 'Read order status',
    critical: false,
    idempotencyRequired: false,
    description: 'Reads order states',
  },
  {
    id: 'PAYMENT_CAPTURE',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Captures an authorised payment',
  },
  {
    id: 'PAYOUT_REPORT',
    label: 'Payout reports',
    critical: false,
    idempotencyRequired: false,
    description: 'Reads payout reports',
  },
  {
    id: 'DELIVERY_DISPATCH',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Books a courier',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: '2001',
    providerId: '1001',
    name: 'Kassensturz Cloud API',
    category: 'POS',
    capabilities: ['MENU_READ', 'ORDER_CREATE', 'ORDER_STATUS'],
    version: '3.2',
  },
  {
    id: '2002',
    providerId: '1001',
    name: 'Kassensturz Reporting',
    category: 'POS',
    capabilities: ['ORDER_STATUS'],
    version: '1.0',
  },
  {
    id: '2003',
    providerId: '1002',
    name: 'Zahlwerk Acquiring',
    category: 'PAYMENTS',
    capabilities: ['PAYMENT_CAPTURE', 'PAYOUT_REPORT'],
    version: '2.4',
  },
  {
    id: '2004',
    providerId: '1003',
    name: 'Lieferfix Dispatch',
    category: 'DELIVERY',
    capabilities: ['DELIVERY_DISPATCH', 'ORDER_STATUS', 'MENU_READ'],
    version: '5.1',
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
