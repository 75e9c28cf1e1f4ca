import { z } from 'zod';
import { defineRoutes } from '../contract/route-def.ts';
import { CONTROL_PREFIX, CONTROL_ROUTES } from './routes.ts';

/** TTL of a run when none is given, and the longest one allowed (seconds). */
export const RUN_TTL = { default: 3600, max: 7 * 24 * 3600 } as const;

export const RunCreateBody = z.strictObject({
  ttlSeconds: z
    .int()
    .min(1)
    .max(RUN_TTL.max)
    .optional()
    .describe(`How long the run lives; everything of it is gone afterwards (default ${RUN_TTL.default})`),
});

export const RunInfoData = z.object({
  runId: z.string().describe("The run's name"),
  token: z.string().describe("A bearer token of the fixtures' default client inside the run, valid until it ends"),
  tenant: z.string().describe("That client's tenant"),
  adminToken: z.string().describe("The run's own control plane: /_sandbox/... with it acts on the run only"),
  expiresAt: z.iso.datetime().describe('When the run and everything in it is gone'),
});

/**
 * POST /_sandbox/runs: answered in front of every mount (app/runs.ts validates with RunCreateBody),
 * not by the control plane's handlers, and described in the control plane's OpenAPI document all the same.
 */
export const RUN_ROUTES = defineRoutes([
  {
    id: 'controlCreateRun',
    method: 'POST',
    path: `${CONTROL_PREFIX}/runs`,
    purpose: 'create a run: an isolated namespace seeded from the fixtures, with its own clock, faults and rate limits',
    tags: ['control'],
    auth: true,
    surface: 'control',
    body: RunCreateBody,
    data: RunInfoData,
    errors: ['rate_limited'],
  },
]);

/** Every route the control plane's OpenAPI document describes (its routing table plus the runs). */
export const CONTROL_DOCUMENT_ROUTES = [...CONTROL_ROUTES, ...RUN_ROUTES];
