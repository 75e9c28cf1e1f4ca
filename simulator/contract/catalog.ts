import { z } from 'zod';
import { Environment } from './environment.ts';
import { boundedString as bounded, LIMITS } from './limits.ts';

// Provider, connector and capability records allow additional fields (Resources section).
export const Provider = z
  .looseObject({ id: z.string(), name: z.string(), category: z.string(), summary: z.string() })
  .meta({ id: 'Provider' });
export type Provider = z.infer<typeof Provider>;

export const Connector = z
  .looseObject({
    id: z.string(),
    providerId: z.string(),
    name: z.string(),
    category: z.string(),
    capabilities: z.array(z.string()),
  })
  .meta({ id: 'Connector' });
export type Connector = z.infer<typeof Connector>;

export const Capability = z
  .looseObject({
    id: z.string(),
    label: z.string(),
    critical: z.boolean(),
    idempotencyRequired: z.boolean().describe('Whether calls using this capability need an idempotency key'),
  })
  .meta({ id: 'Capability' });
export type Capability = z.infer<typeof Capability>;

export const CapabilityDecision = z
  .object({
    connectorId: z.string(),
    capability: z.string(),
    allowed: z.boolean(),
    critical: z.boolean(),
    idempotencyRequired: z.boolean(),
    reason: z.string(),
  })
  .meta({ id: 'CapabilityDecision' });
export type CapabilityDecision = z.infer<typeof CapabilityDecision>;

export const ProvidersQuery = z.object({
  category: z.string().optional().describe('Restricts to one category'),
});
export const ConnectorsQuery = z.object({
  capability: z.string().optional().describe('Only connectors offering this capability'),
  providerId: z.string().optional().describe('Only connectors of this provider'),
  category: z.string().optional().describe('Only connectors of this category'),
});

export const CapabilityCheckBody = z
  .strictObject({
    connectorId: bounded(LIMITS.connectorId),
    capability: bounded(LIMITS.capability),
    environment: Environment.optional().describe('Default sandbox'),
  })
  .meta({ id: 'CapabilityCheckRequest' });
export type CapabilityCheckBody = z.infer<typeof CapabilityCheckBody>;

export const ProvidersData = z.object({ count: z.int(), providers: z.array(Provider) });
export const ConnectorsData = z.object({ count: z.int(), connectors: z.array(Connector) });
export const CapabilitiesData = z.object({ count: z.int(), capabilities: z.array(Capability) });
export const CapabilityCheckData = z.object({ decision: CapabilityDecision, environment: Environment });
