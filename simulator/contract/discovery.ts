import { z } from 'zod';
import { Environment } from './environment.ts';

export const RouteInfo = z
  .object({ method: z.string(), path: z.string(), purpose: z.string(), auth: z.boolean() })
  .meta({ id: 'RouteInfo' });
export type RouteInfo = z.infer<typeof RouteInfo>;

export const SelfDescriptionData = z.object({
  service: z.string(),
  surface: z.string(),
  version: z.string(),
  authentication: z.record(z.string(), z.unknown()),
  idempotency: z.record(z.string(), z.unknown()),
  routes: z.array(RouteInfo),
});

/** GET /info: the interface's sample "first call"; its response is the simulator's choice. */
export const InfoData = z.looseObject({
  tenant: z.string(),
  client: z.object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    purpose: z.string(),
    owner: z.string(),
    expiresAt: z.iso.datetime(),
  }),
  environment: Environment,
  scopes: z.array(z.string()),
  tokenExpiresAt: z.iso.datetime(),
  version: z.string(),
});
