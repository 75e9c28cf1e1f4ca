// Invented seed catalog: a freight and logistics network (carriers, warehouses, customs, telematics, payments).
export type Provider = { id: string; name: string; category: string; summary: string; countryCode: string };
export type Connector = {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  protocol: string;
};
export type Capability = {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
  /** Environments in which the capability may not be booked (our own rule). */
  restrictedIn: string[];
};

export const PROVIDERS: Provider[] = [
  {
    id: 'PRV-NORDLICHT',
    name: 'Nordlicht Carriers',
    category: 'carrier',
    summary: 'Parcel and pallet carrier in northern Europe',
    countryCode: 'DE',
  },
  {
    id: 'PRV-KESTREL',
    name: 'Kestrel Freight',
    category: 'carrier',
    summary: 'Less-than-truckload freight network',
    countryCode: 'NL',
  },
  {
    id: 'PRV-HALDEN',
    name: 'Halden Warehouse Systems',
    category: 'warehouse',
    summary: 'Cloud warehouse management',
    countryCode: 'NO',
  },
  {
    id: 'PRV-TOLLGATE',
    name: 'Tollgate Customs Brokerage',
    category: 'customs',
    summary: 'Electronic customs declarations',
    countryCode: 'AT',
  },
  {
    id: 'PRV-FERRO',
    name: 'Ferro Telematics',
    category: 'telematics',
    summary: 'Fleet positions and remote vehicle control',
    countryCode: 'CZ',
  },
  {
    id: 'PRV-QUAYSIDE',
    name: 'Quayside Settlement',
    category: 'payments',
    summary: 'Freight invoice settlement',
    countryCode: 'DK',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'nordlicht-parcel-api',
    providerId: 'PRV-NORDLICHT',
    name: 'Nordlicht Parcel API',
    category: 'carrier',
    capabilities: ['shipment.book', 'shipment.track', 'shipment.cancel', 'label.print'],
    protocol: 'REST',
  },
  {
    id: 'nordlicht-edi-gateway',
    providerId: 'PRV-NORDLICHT',
    name: 'Nordlicht EDI Gateway',
    category: 'carrier',
    capabilities: ['shipment.book', 'shipment.track', 'invoice.settle'],
    protocol: 'EDIFACT',
  },
  {
    id: 'kestrel-ltl-connect',
    providerId: 'PRV-KESTREL',
    name: 'Kestrel LTL Connect',
    category: 'carrier',
    capabilities: ['shipment.book', 'shipment.track', 'rate.quote'],
    protocol: 'REST',
  },
  {
    id: 'halden-wms-cloud',
    providerId: 'PRV-HALDEN',
    name: 'Halden WMS Cloud',
    category: 'warehouse',
    capabilities: ['inventory.sync', 'order.fulfil', 'label.print'],
    protocol: 'REST',
  },
  {
    id: 'tollgate-declare',
    providerId: 'PRV-TOLLGATE',
    name: 'Tollgate Declare',
    category: 'customs',
    capabilities: ['customs.declare', 'customs.status'],
    protocol: 'SOAP',
  },
  {
    id: 'ferro-fleet-stream',
    providerId: 'PRV-FERRO',
    name: 'Ferro Fleet Stream',
    category: 'telematics',
    capabilities: ['fleet.telemetry', 'fleet.immobilize'],
    protocol: 'MQTT',
  },
  {
    id: 'quayside-settlement',
    providerId: 'PRV-QUAYSIDE',
    name: 'Quayside Settlement',
    category: 'payments',
    capabilities: ['invoice.settle', 'payment.refund'],
    protocol: 'ISO20022',
  },
];

const cap = (
  id: string,
  label: string,
  critical: boolean,
  idem: boolean,
  description: string,
  restrictedIn: string[] = [],
): Capability => ({
  id,
  label,
  critical,
  idempotencyRequired: idem,
  description,
  restrictedIn,
});

export const CAPABILITIES: Capability[] = [
  cap('shipment.book', 'Book shipment', true, true, 'Create a transport order with the carrier'),
  cap('shipment.track', 'Track shipment', false, false, 'Read tracking events'),
  cap('shipment.cancel', 'Cancel shipment', true, true, 'Cancel a booked transport order'),
  cap('label.print', 'Print label', false, true, 'Render a shipping label'),
  cap('rate.quote', 'Quote rate', false, false, 'Ask for a freight rate'),
  cap('invoice.settle', 'Settle invoice', true, true, 'Settle a freight invoice'),
  cap('payment.refund', 'Refund payment', true, true, 'Refund a settled payment', ['development']),
  cap('inventory.sync', 'Synchronise inventory', false, true, 'Push stock levels'),
  cap('order.fulfil', 'Fulfil order', true, true, 'Release an order for picking'),
  cap('customs.declare', 'Declare customs', true, true, 'File an export declaration'),
  cap('customs.status', 'Customs status', false, false, 'Read the clearance status'),
  cap('fleet.telemetry', 'Fleet telemetry', false, false, 'Read vehicle positions'),
  cap('fleet.immobilize', 'Immobilize vehicle', true, true, 'Remotely immobilize a vehicle', ['pilot', 'production']),
  cap('document.archive', 'Archive documents', false, false, 'Long-term archive (no connector offers it yet)'),
];

export type Decision = {
  connectorId: string;
  capability: string;
  allowed: boolean;
  critical: boolean;
  idempotencyRequired: boolean;
  reason: string;
};

/** Our decision rule; reason codes in upper snake case, followed by a sentence. */
export function decide(connector: Connector, capability: string, environment: string): Decision {
  const c = CAPABILITIES.find((x) => x.id === capability);
  const base = {
    connectorId: connector.id,
    capability,
    critical: c?.critical ?? false,
    idempotencyRequired: c?.idempotencyRequired ?? false,
  };
  if (c === undefined) return { ...base, allowed: false, reason: 'UNKNOWN_CAPABILITY: not in the capability catalog' };
  if (!connector.capabilities.includes(capability)) {
    return { ...base, allowed: false, reason: `NOT_OFFERED: connector ${connector.id} does not offer ${capability}` };
  }
  if (c.restrictedIn.includes(environment)) {
    return {
      ...base,
      allowed: false,
      reason: `RESTRICTED_IN_ENVIRONMENT: ${capability} is not released in ${environment}`,
    };
  }
  return { ...base, allowed: true, reason: `GRANTED: ${connector.id} offers ${capability} in ${environment}` };
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
