// The catalog, as the H2 seed script of an Exposed team would hold it: stable kebab ids, read-only.
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
  { id: 'prv-northpay', name: 'Northpay', category: 'payments', summary: 'Card and wallet payments' },
  { id: 'prv-tablehub', name: 'Tablehub', category: 'reservations', summary: 'Table reservations' },
  { id: 'prv-ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping exports' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.authorize', label: 'Authorize a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: false, idempotencyRequired: true },
  { id: 'ledger.export', label: 'Export ledger entries', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'cnc-northpay-terminal',
    providerId: 'prv-northpay',
    name: 'Northpay Terminal',
    category: 'payments',
    capabilities: ['payments.authorize', 'payments.refund'],
  },
  {
    id: 'cnc-tablehub-sync',
    providerId: 'prv-tablehub',
    name: 'Tablehub Sync',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'cnc-ledgerly-export',
    providerId: 'prv-ledgerly',
    name: 'Ledgerly Export',
    category: 'accounting',
    capabilities: ['ledger.export'],
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

/** Query filters: an absent parameter does not filter; an empty one matches nothing. */
export function filterConnectors(q: URLSearchParams): Connector[] {
  return CONNECTORS.filter(
    (c) =>
      (!q.has('capability') || c.capabilities.includes(q.get('capability') ?? '')) &&
      (!q.has('providerId') || c.providerId === q.get('providerId')) &&
      (!q.has('category') || c.category === q.get('category')),
  );
}

export function filterProviders(q: URLSearchParams): Provider[] {
  return PROVIDERS.filter((p) => !q.has('category') || p.category === q.get('category'));
}
