// Quince's invented sandbox catalog (test data only) and the capability decision rule.
import { ApiError } from './util.ts';

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const CAPABILITIES: Capability[] = [
  { id: 'ORDERS_READ', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'ORDERS_WRITE', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'PAYMENTS_CAPTURE', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'MENU_SYNC', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'TABLES_BOOK', label: 'Book tables', critical: false, idempotencyRequired: true },
];

export const PROVIDERS = [
  {
    id: 'p-tillbird',
    name: 'Tillbird',
    category: 'POS',
    summary: 'Point of sale for small venues',
    region: 'europe-west3',
  },
  {
    id: 'p-paywren',
    name: 'Paywren',
    category: 'PAYMENTS',
    summary: 'Card payments and payouts',
    region: 'europe-west1',
  },
  { id: 'p-seatowl', name: 'Seatowl', category: 'RESERVATIONS', summary: 'Table reservations', region: 'us-central1' },
];

export const CONNECTORS = [
  {
    id: 'k-tillbird-pos',
    providerId: 'p-tillbird',
    name: 'Tillbird POS',
    category: 'POS',
    capabilities: ['ORDERS_READ', 'ORDERS_WRITE', 'MENU_SYNC'],
  },
  {
    id: 'k-paywren-cards',
    providerId: 'p-paywren',
    name: 'Paywren Cards',
    category: 'PAYMENTS',
    capabilities: ['PAYMENTS_CAPTURE', 'ORDERS_READ'],
  },
  {
    id: 'k-seatowl-book',
    providerId: 'p-seatowl',
    name: 'Seatowl Booking',
    category: 'RESERVATIONS',
    capabilities: ['TABLES_BOOK'],
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

/** Allowed when the connector offers the capability; an unknown connector is not_found. */
export function decide(connectorId: string, cap: string) {
  const connector = CONNECTORS.find((c) => c.id === connectorId);
  if (!connector) throw new ApiError('not_found', `Connector ${connectorId} does not exist.`, 'CONNECTOR_NOT_FOUND');
  const known = capability(cap);
  const offered = connector.capabilities.includes(cap);
  const reason = offered ? 'CAPABILITY_OFFERED' : known ? 'CAPABILITY_NOT_OFFERED_BY_CONNECTOR' : 'CAPABILITY_UNKNOWN';
  return {
    connectorId,
    capability: cap,
    allowed: offered,
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? false,
    reason,
  };
}

// Field validation: every constraint of the interface's Limits, answered as invalid_request.
export function str(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw new ApiError('invalid_request', `Field ${field} is required.`, 'FIELD_REQUIRED', field);
    return undefined;
  }
  if (typeof v !== 'string')
    throw new ApiError('invalid_request', `Field ${field} must be a string.`, 'FIELD_TYPE', field);
  if (v.length < min || v.length > max) {
    throw new ApiError(
      'invalid_request',
      `Field ${field} must be ${min} to ${max} characters long.`,
      'FIELD_LENGTH',
      field,
    );
  }
  return v;
}

export function environment(body: Record<string, unknown>, required: boolean): string | undefined {
  const v = body.environment;
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError(
      'invalid_request',
      `Field environment must be one of ${ENVIRONMENTS.join(', ')}.`,
      'FIELD_ENUM',
      'environment',
    );
  }
  return v;
}

export function capabilityList(body: Record<string, unknown>): string[] {
  const v = body.capabilities;
  if (!Array.isArray(v) || v.length < 1 || v.length > 24) {
    throw new ApiError(
      'invalid_request',
      'Field capabilities must be an array of 1 to 24 strings.',
      'FIELD_ARRAY',
      'capabilities',
    );
  }
  for (const c of v) {
    if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
      throw new ApiError(
        'invalid_request',
        'Each capability must be a string of 2 to 120 characters.',
        'FIELD_ITEM',
        'capabilities',
      );
    }
  }
  return v as string[];
}
