// The invented catalog, seeded as the Postgres migration's fixtures seed it: records as json_serializable
// writes them, nullable extras included (`websiteUrl: null`, `deprecatedAt: null`).
import type { Rec } from './state.ts';

export const PROVIDERS: Rec[] = [
  {
    id: 'prv-lakeside-pay',
    name: 'Lakeside Pay',
    category: 'payments',
    summary: 'Card and wallet acquiring',
    websiteUrl: null,
  },
  {
    id: 'prv-tablebook',
    name: 'TableBook',
    category: 'reservations',
    summary: 'Table reservations',
    websiteUrl: 'https://tablebook.example',
  },
  {
    id: 'prv-crate-logistics',
    name: 'Crate Logistics',
    category: 'delivery',
    summary: 'Last-mile delivery',
    websiteUrl: null,
  },
];

export const CAPABILITIES: Rec[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, description: null },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, description: null },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: null,
  },
  {
    id: 'reservations.write',
    label: 'Write reservations',
    critical: false,
    idempotencyRequired: true,
    description: null,
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Books a courier',
  },
  { id: 'delivery.track', label: 'Track couriers', critical: false, idempotencyRequired: false, description: null },
  { id: 'delivery.quote', label: 'Quote deliveries', critical: false, idempotencyRequired: false, description: null },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'con-lakeside-terminal',
    providerId: 'prv-lakeside-pay',
    name: 'Lakeside Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    deprecatedAt: null,
  },
  {
    id: 'con-tablebook-sync',
    providerId: 'prv-tablebook',
    name: 'TableBook Sync',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
    deprecatedAt: null,
  },
  {
    id: 'con-crate-dispatch',
    providerId: 'prv-crate-logistics',
    name: 'Crate Dispatch',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'delivery.track', 'delivery.quote'],
    deprecatedAt: null,
  },
];
