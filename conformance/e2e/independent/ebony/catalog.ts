// The catalog of ebony (invented sandbox data): providers, connectors and capabilities as the CICS programs
// behind z/OS Connect hold them, with program names and four-letter transaction codes as extra fields.
import { ApiError, type Call, environment, text } from './http.ts';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  transactionCode: string;
}

export const PROVIDERS = [
  { id: 'PV000001', name: 'MICROS POS BRIDGE', category: 'pos', summary: 'Point-of-sale order feed', region: 'EU' },
  {
    id: 'PV000002',
    name: 'PAYLINK CARD SERVICES',
    category: 'payments',
    summary: 'Card capture and refund',
    region: 'EU',
  },
  { id: 'PV000003', name: 'TABLEBOOK', category: 'reservations', summary: 'Table reservations', region: 'EU' },
  { id: 'PV000004', name: 'DELIVERNOW', category: 'delivery', summary: 'Courier dispatch', region: 'EU' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'ORDERS.READ', label: 'Read orders', critical: false, idempotencyRequired: false, transactionCode: 'ORRD' },
  { id: 'ORDERS.WRITE', label: 'Write orders', critical: true, idempotencyRequired: true, transactionCode: 'ORWR' },
  { id: 'MENU.SYNC', label: 'Synchronise menu', critical: false, idempotencyRequired: true, transactionCode: 'MNSY' },
  {
    id: 'PAYMENTS.CAPTURE',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    transactionCode: 'PYCP',
  },
  {
    id: 'PAYMENTS.REFUND',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    transactionCode: 'PYRF',
  },
  {
    id: 'RESERVATIONS.READ',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    transactionCode: 'RSRD',
  },
  {
    id: 'RESERVATIONS.WRITE',
    label: 'Write reservations',
    critical: false,
    idempotencyRequired: true,
    transactionCode: 'RSWR',
  },
  {
    id: 'DELIVERY.DISPATCH',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    transactionCode: 'DLDS',
  },
];

export const CONNECTORS = [
  {
    id: 'CX000101',
    providerId: 'PV000001',
    name: 'POS ORDER FEED',
    category: 'pos',
    capabilities: ['ORDERS.READ', 'ORDERS.WRITE', 'MENU.SYNC'],
    program: 'EBCX0101',
  },
  {
    id: 'CX000201',
    providerId: 'PV000002',
    name: 'CARD CAPTURE',
    category: 'payments',
    capabilities: ['PAYMENTS.CAPTURE', 'PAYMENTS.REFUND'],
    program: 'EBCX0201',
  },
  {
    id: 'CX000301',
    providerId: 'PV000003',
    name: 'RESERVATION SYNC',
    category: 'reservations',
    capabilities: ['RESERVATIONS.READ', 'RESERVATIONS.WRITE'],
    program: 'EBCX0301',
  },
  {
    id: 'CX000401',
    providerId: 'PV000004',
    name: 'COURIER DISPATCH',
    category: 'delivery',
    capabilities: ['ORDERS.READ', 'DELIVERY.DISPATCH'],
    program: 'EBCX0401',
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string) {
  return CONNECTORS.find((c) => c.id === id);
}

function q(call: Call, name: string): string | undefined {
  const v = call.url.searchParams.get(name);
  return v === null || v === '' ? undefined : v;
}

export function listProviders(call: Call) {
  const category = q(call, 'category');
  const providers = PROVIDERS.filter((p) => !category || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(call: Call) {
  const cap = q(call, 'capability');
  const providerId = q(call, 'providerId');
  const category = q(call, 'category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (!cap || c.capabilities.includes(cap)) &&
      (!providerId || c.providerId === providerId) &&
      (!category || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities() {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

/** POST /capabilities: the decision for one capability of one connector (404 for an unknown connector). */
export function checkCapability(call: Call) {
  const connectorId = text(call.body, 'connectorId', 2, 120);
  const cap = text(call.body, 'capability', 2, 120);
  const env = environment(call.body, 'environment', 'sandbox');
  const con = connector(connectorId);
  if (!con) throw new ApiError('not_found', 'The entry does not exist.', `connector ${connectorId}`);
  const c = capability(cap);
  const offered = !!c && con.capabilities.includes(cap);
  const reason = !c
    ? `NOTCAT: capability ${cap} is not in the catalog`
    : offered
      ? `OFFERED: ${cap} is released for ${connectorId} in ${env}`
      : `NOTOFF: ${cap} is not offered by ${connectorId}`;
  return {
    decision: {
      connectorId,
      capability: cap,
      allowed: offered,
      critical: c?.critical ?? false,
      idempotencyRequired: c?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}
