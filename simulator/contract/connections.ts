import { z } from 'zod';
import { DateTime } from './date-time.ts';
import { Environment } from './environment.ts';
import { boundedString as bounded, LIMITS } from './limits.ts';

export const ConnectionCapability = z.looseObject({
  capability: z.string(),
  critical: z.boolean(),
  idempotencyRequired: z.boolean(),
});

// The interface leaves the allowed values of `state` open ("not shown"), so the contract says string;
// the simulator's own lifecycle lives in simulator/services/connection-lifecycle.ts.
export const Connection = z
  .looseObject({
    id: z.string(),
    connectorId: z.string(),
    environment: Environment,
    scopeLabel: z.string().describe('Descriptive name, e.g. the name of the venue'),
    state: z.string(),
    capabilities: z.array(ConnectionCapability),
    nextStep: z.string(),
    createdAt: DateTime,
  })
  .meta({ id: 'Connection' });
export type Connection = z.infer<typeof Connection>;

export const CreateConnectionBody = z
  .strictObject({
    connectorId: bounded(LIMITS.connectorId),
    environment: Environment,
    scopeLabel: bounded(LIMITS.scopeLabel),
    capabilities: z
      .array(bounded(LIMITS.capability))
      .min(LIMITS.connectionCapabilities.minItems)
      .max(LIMITS.connectionCapabilities.maxItems),
  })
  .meta({ id: 'CreateConnectionRequest' });
export type CreateConnectionBody = z.infer<typeof CreateConnectionBody>;

export const ConnectionsData = z.object({ tenant: z.string(), count: z.int(), connections: z.array(Connection) });
