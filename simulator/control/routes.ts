import { z } from 'zod';
import { defineRoutes, type RouteDef } from '../contract/route-def.ts';

export const CONTROL_PREFIX = '/_sandbox';

export const SetConnectionStateBody = z.strictObject({
  state: z.enum(['active', 'paused', 'revoked']).describe('active resumes a paused connection; revoked is final'),
});
export const AdvanceClockBody = z.strictObject({
  seconds: z
    .number()
    .positive()
    .max(10 * 365 * 24 * 3600)
    .describe('How far to move the simulator clock forward'),
});
export const AddFaultBody = z.strictObject({
  kind: z
    .enum([
      'internal',
      'rate_limited',
      'latency',
      'unavailable',
      'commit_then_fail',
      'stream_cut',
      'stream_stall',
      'stream_restart',
      'cursor_expired',
      'stale_signature',
      'future_signature',
    ])
    .describe(
      'commit_then_fail: the call commits, then the answer fails (failWith); unavailable: 503; stream_*: the status stream is cut, stalls or restarts after afterMessages; cursor_expired: a reconnect is told its cursor is older than retention; stale_signature / future_signature: the next webhook attempts are signed that far in the past / future',
    ),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  route: z.string().min(1).max(300).optional().describe('operationId, route path or concrete path; any when absent'),
  tenant: z
    .string()
    .min(1)
    .max(120)
    .optional()
    .describe('Only calls naming this tenant (x-service-tenant); any when absent'),
  count: z
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('How many matching calls get the fault (default 1; without it, every call during durationSeconds)'),
  durationSeconds: z.number().positive().max(86_400).optional().describe('The fault ends this long after arming'),
  retryAfterSeconds: z.int().min(0).max(3600).optional().describe('Retry-After of an injected 429 (default 1) or 503'),
  latencyMs: z.int().min(0).max(60_000).optional().describe('Added latency of a latency fault'),
  failWith: z
    .enum(['internal', 'unavailable', 'drop', 'timeout'])
    .optional()
    .describe('commit_then_fail: 500 (default), 503, a dropped connection, or a held answer then a dropped connection'),
  holdMs: z
    .int()
    .min(0)
    .max(120_000)
    .optional()
    .describe('commit_then_fail timeout: how long the answer is held (default 10000)'),
  afterMessages: z
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe('Stream faults: numbered messages sent before the fault acts (default 1)'),
  stallMs: z
    .int()
    .min(0)
    .max(600_000)
    .optional()
    .describe('stream_stall: silence before the stream ends (default 30000)'),
  downMs: z
    .int()
    .min(0)
    .max(600_000)
    .optional()
    .describe('stream_restart: how long the stream answers 503 (default 2000)'),
  skewSeconds: z
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .optional()
    .describe('How far a signature fault moves the signed time (default 600, twice the 300 s window)'),
  webhookId: z.string().min(1).max(120).optional().describe('Signature faults: only deliveries to this receiver'),
});

// An id of the fixtures or a receiver never starts with ncs_; a token pasted there by mistake is refused
// by the pattern (the answer names the field, never the value), not echoed back in `filter` or a 404.
const anId = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^(?![Nn][Cc][Ss]_)/, 'an id, not a token (ncs_…)');
export const ClientReportQuery = z.object({
  client: anId(200).optional().describe("Only this client's calls (the token's client id)"),
  tenant: anId(120).optional().describe("Only this tenant's calls"),
});
export const ReceiverCheckBody = z.strictObject({
  webhookId: anId(120).describe('The registered receiver to check'),
  tenant: anId(120).optional().describe('Its tenant (found by id when absent)'),
  timeoutMs: z.int().min(100).max(60_000).optional().describe('Each answer must come within this (default 5000)'),
});

export const SetStatusBody = z.strictObject({
  status: z.enum(['operational', 'degraded', 'partial_outage', 'major_outage', 'maintenance']),
  message: z.string().min(1).max(500).optional(),
});
/**
 * Bytes the `data` overrides of a sample event may take as JSON. Every triggered event is kept in its
 * feed's retention window (10,000 messages, by count) and queued once per receiver: 150 triggers with
 * 900 KB of `data` held 470 MB. Sample orders are under 1 KB.
 */
export const MAX_TRIGGER_DATA_BYTES = 16 * 1024;
export const TriggerBody = z.strictObject({
  event: z.enum(['order.created', 'order.paid']).describe('Sample event to emit'),
  tenant: z.string().min(1).max(120).describe('Tenant whose feed and receivers get it'),
  data: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(`Overrides of the sample payload (at most ${MAX_TRIGGER_DATA_BYTES} bytes as JSON)`),
});

const Summary = z.looseObject({
  connections: z.int(),
  idempotencyRecords: z.int(),
  clockOffsetMs: z.number(),
  faults: z.array(z.unknown()),
});
const ctl = <const R extends Omit<RouteDef, 'tags' | 'auth' | 'surface'>>(r: R) => ({
  ...r,
  tags: ['control'],
  auth: true as const,
  surface: 'control' as const,
});

/** The control plane's route table (its own OpenAPI document at /_sandbox/openapi.json). */
export const CONTROL_ROUTES = defineRoutes([
  ctl({
    id: 'controlSummary',
    method: 'GET',
    path: CONTROL_PREFIX,
    purpose: 'state summary: counts, clock offset, armed faults',
    data: Summary,
  }),
  {
    id: 'controlOpenApi',
    method: 'GET',
    path: `${CONTROL_PREFIX}/openapi.json`,
    purpose: 'OpenAPI 3.1 document of the control plane',
    tags: ['control'],
    auth: false,
    surface: 'control',
    kind: 'document',
  },
  ctl({
    id: 'controlReset',
    method: 'POST',
    path: `${CONTROL_PREFIX}/reset`,
    purpose: 'reset all state to the fixtures',
    data: Summary,
  }),
  ctl({
    id: 'controlSetConnectionState',
    method: 'POST',
    path: `${CONTROL_PREFIX}/connections/{connectionId}/state`,
    purpose: 'pause, resume or revoke a connection',
    params: z.object({ connectionId: z.string() }),
    body: SetConnectionStateBody,
    errors: ['not_found'],
  }),
  ctl({ id: 'controlClock', method: 'GET', path: `${CONTROL_PREFIX}/clock`, purpose: 'the simulator clock' }),
  ctl({
    id: 'controlAdvanceClock',
    method: 'POST',
    path: `${CONTROL_PREFIX}/clock/advance`,
    purpose: 'move the simulator clock forward',
    body: AdvanceClockBody,
  }),
  ctl({ id: 'controlListFaults', method: 'GET', path: `${CONTROL_PREFIX}/faults`, purpose: 'armed faults' }),
  ctl({
    id: 'controlAddFault',
    method: 'POST',
    path: `${CONTROL_PREFIX}/faults`,
    purpose: 'inject a fault into the next N matching calls',
    body: AddFaultBody,
  }),
  ctl({
    id: 'controlSetStatus',
    method: 'POST',
    path: `${CONTROL_PREFIX}/status`,
    purpose: 'publish a service status message on the public stream feed',
    body: SetStatusBody,
  }),
  ctl({
    id: 'controlTrigger',
    method: 'POST',
    path: `${CONTROL_PREFIX}/trigger`,
    purpose: 'emit a sample order.created / order.paid event to a tenant (stream + webhooks)',
    body: TriggerBody,
    errors: ['not_found'],
  }),
  ctl({ id: 'controlClearFaults', method: 'DELETE', path: `${CONTROL_PREFIX}/faults`, purpose: 'disarm every fault' }),
  ctl({
    id: 'controlInspectorLogin',
    method: 'POST',
    path: `${CONTROL_PREFIX}/inspector-login`,
    purpose: 'a fresh one-time inspector login link (the previous unused link stops working; sessions stay)',
    data: z.object({ url: z.string().describe('Open in a browser: logs in once') }),
    errors: ['not_found'],
  }),
  ctl({
    id: 'controlClientReport',
    method: 'GET',
    path: `${CONTROL_PREFIX}/client-report`,
    purpose: 'client verdicts: every client rule with id, severity, status (pass, fail, not-observed) and evidence',
    query: ClientReportQuery,
  }),
  ctl({
    id: 'controlReceiverCheck',
    method: 'POST',
    path: `${CONTROL_PREFIX}/receiver-check`,
    purpose: 'send a registered webhook receiver the scored sequence of valid, forged and malformed deliveries',
    body: ReceiverCheckBody,
    errors: ['not_found'],
  }),
]);

/** One row of the control plane's route table, with its literal id and schemas. */
export type ControlRoute = (typeof CONTROL_ROUTES)[number];
