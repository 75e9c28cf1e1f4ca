// The invented catalog (seeded by a Flyway migration in the team's service): kebab-case slugs as ids.
import type { Rec } from './state.ts';

export const PROVIDERS: Rec[] = [
  {
    id: 'kassenwerk',
    name: 'Kassenwerk',
    category: 'pos',
    summary: 'Cloud point of sale for restaurants.',
    country: 'DE',
  },
  {
    id: 'tischfrei',
    name: 'Tischfrei',
    category: 'reservations',
    summary: 'Table reservations and waitlists.',
    country: 'AT',
  },
  {
    id: 'lieferblitz',
    name: 'Lieferblitz',
    category: 'delivery',
    summary: 'Delivery platform marketplace.',
    country: 'DE',
  },
  {
    id: 'zahlfix',
    name: 'Zahlfix',
    category: 'payments',
    summary: 'Card and wallet payments at the table.',
    country: 'CH',
  },
];

export const CAPABILITIES: Rec[] = [
  { id: 'menu.read', label: 'Read the menu', critical: false, idempotencyRequired: false },
  { id: 'menu.publish', label: 'Publish the menu', critical: false, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.create', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: false, idempotencyRequired: true },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'kassenwerk-pos-v2',
    providerId: 'kassenwerk',
    name: 'Kassenwerk POS v2',
    category: 'pos',
    capabilities: ['menu.read', 'menu.publish', 'orders.read', 'orders.create'],
    releaseStage: 'GA',
  },
  {
    id: 'tischfrei-booking',
    providerId: 'tischfrei',
    name: 'Tischfrei Booking',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
    releaseStage: 'GA',
  },
  {
    id: 'lieferblitz-orders',
    providerId: 'lieferblitz',
    name: 'Lieferblitz Orders',
    category: 'delivery',
    capabilities: ['menu.read', 'orders.read', 'orders.create'],
    releaseStage: 'BETA',
  },
  {
    id: 'zahlfix-terminal',
    providerId: 'zahlfix',
    name: 'Zahlfix Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    releaseStage: 'GA',
  },
];

export function capability(id: string): Rec | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string): Rec | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
