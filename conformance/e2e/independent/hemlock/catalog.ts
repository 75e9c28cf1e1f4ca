// The static catalog: providers, connectors, capabilities. Ids are prefixed base62-looking slugs, fixed so
// that partners can hard-code them in configuration (catalog ids never change between releases).
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const PROVIDERS: Provider[] = [
  { id: 'pv_Kx81payhub', name: 'PayHub', category: 'payments', summary: 'Card and wallet payments at the table.' },
  { id: 'pv_Q3tablebook', name: 'TableBook', category: 'reservations', summary: 'Reservations and waitlists.' },
  { id: 'pv_Z7cookline', name: 'Cookline', category: 'kitchen', summary: 'Kitchen display and ticket routing.' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Create or change reservations', critical: false, idempotencyRequired: true },
  { id: 'orders.route', label: 'Route orders to the kitchen', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'ct_Pa9payhubterm',
    providerId: 'pv_Kx81payhub',
    name: 'PayHub Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'ct_Tb4tablebook',
    providerId: 'pv_Q3tablebook',
    name: 'TableBook Sync',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'ct_Ck2cookkds',
    providerId: 'pv_Z7cookline',
    name: 'Cookline KDS',
    category: 'kitchen',
    capabilities: ['orders.route', 'menu.sync'],
  },
];

export const capabilityById = (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string): Connector | undefined => CONNECTORS.find((c) => c.id === id);
