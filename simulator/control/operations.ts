import type { z } from 'zod';
import type { ClientVerdicts } from '../client-rules/index.ts';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { announce } from '../events/fan-out.ts';
import { PUBLIC_FEED } from '../events/feed.ts';
import type { ClockService } from '../services/clock-service.ts';
import type { ConnectionState } from '../services/connection-lifecycle.ts';
import { type ConnectionService, TransitionError } from '../services/connection-service.ts';
import type { Fault, FaultService } from '../services/fault-service.ts';
import type { FeedService } from '../services/feed-service.ts';
import type { IdempotencyPort } from '../services/idempotency-service.ts';
import { checkRateLimitSettings, type RateLimitPort, type RateLimitSettings } from '../services/rate-limit-service.ts';
import type { ReceiverService } from '../services/receiver-service.ts';
import type { EventBus } from '../state/domain-events.ts';
import { all, andThen } from '../state/ports/maybe-promise.ts';
import type { Dispatcher } from '../webhooks/dispatcher.ts';
import { runReceiverCheck } from '../webhooks/receiver-check.ts';
import {
  type AddFaultBody,
  type ClientReportQuery,
  MAX_TRIGGER_DATA_BYTES,
  type ReceiverCheckBody,
  type SetStatusBody,
  type TriggerBody,
} from './routes.ts';
import { sampleOrderEvent } from './sample-events.ts';

export class ControlError extends Error {
  readonly code: 'not_found' | 'invalid_request';
  constructor(code: 'not_found' | 'invalid_request', message: string) {
    super(message);
    this.code = code;
  }
}

/** The stores the control plane reads and changes, and the sandbox-wide reset. */
export interface ControlStores {
  clock: ClockService;
  connections: ConnectionService;
  idempotency: IdempotencyPort;
  faults: FaultService;
  feeds: FeedService;
  receivers: ReceiverService;
  dispatcher: Dispatcher;
  events: EventBus;
  rateLimits: RateLimitPort;
  tenants: ReadonlyMap<string, unknown>;
  reset(): Promise<void>;
}

/** Client verdicts and what the receiver check needs (absent: the report says so). */
export interface ControlVerdicts {
  verdicts: ClientVerdicts;
  signatureHeader?: string;
  /** How the receiver check reaches receivers (default undici's fetch). */
  fetch?: typeof fetch;
}

/**
 * The control plane as library functions: the /_sandbox routes call these, and MSW users call them
 * directly through `sandbox.control`.
 * @example sandbox.control.setConnectionState(id, 'paused'); sandbox.control.advanceClock(3600);
 */
export function createControlOperations(state: ControlStores, extra?: ControlVerdicts) {
  const caller = (requestId: string) => ({ actor: 'sandbox-admin', requestId });
  return {
    summary() {
      const counted = all([state.connections.count(), state.idempotency.size(), state.faults.list()] as const);
      return andThen(counted, ([connections, idempotencyRecords, faults]) => ({
        connections,
        idempotencyRecords,
        clockOffsetMs: state.clock.offset(),
        now: new Date(state.clock.now()).toISOString(),
        faults,
      }));
    },
    async reset() {
      await state.reset();
      extra?.verdicts.clear();
      return this.summary();
    },
    setConnectionState(connectionId: string, to: Exclude<ConnectionState, 'pending'>, requestId = 'control') {
      const refused = (err: unknown): never => {
        if (err instanceof TransitionError) throw new ControlError('invalid_request', `${err.message}.`);
        throw err;
      };
      return andThen(state.connections.find(connectionId), (found) => {
        if (!found) throw new ControlError('not_found', `No connection ${connectionId}.`);
        try {
          const changed = state.connections.setState(connectionId, to, caller(requestId));
          return changed instanceof Promise ? changed.catch(refused) : changed;
        } catch (err) {
          return refused(err);
        }
      });
    },
    clock() {
      return { now: new Date(state.clock.now()).toISOString(), offsetMs: state.clock.offset() };
    },
    /** Moves the sandbox clock through its service; answers once the new offset is stored. */
    advanceClock(seconds: number) {
      return andThen(state.clock.advance(seconds * 1000), () => this.clock());
    },
    /** Arms a fault for `count` matching calls (default 1) or, with `durationSeconds` alone, every one until then. */
    addFault(fault: z.input<typeof AddFaultBody>) {
      // A fault for a tenant the fixtures do not have would never fire: refused like a trigger for one.
      if (fault.tenant !== undefined && !state.tenants.has(fault.tenant))
        throw new ControlError('not_found', `No tenant ${fault.tenant} in the fixtures.`);
      return state.faults.arm(fault);
    },
    listFaults: () => state.faults.list(),
    /** Publishes a service status message on the public feed of the status stream. */
    setStatus(body: z.input<typeof SetStatusBody>) {
      const published = state.feeds.publish(PUBLIC_FEED, 'service.status', {
        status: body.status,
        message: body.message ?? `Service is ${body.status.replace('_', ' ')}.`,
      });
      return andThen(published, (m) => ({ feed: PUBLIC_FEED, id: m.id, event: m.event, data: m.data }));
    },
    /** Emits a sample order event to one tenant: its stream feed and every subscribed receiver. */
    trigger(body: z.input<typeof TriggerBody>) {
      if (!state.tenants.has(body.tenant))
        throw new ControlError('not_found', `No tenant ${body.tenant} in the fixtures.`);
      const size = body.data ? Buffer.byteLength(JSON.stringify(body.data)) : 0;
      if (size > MAX_TRIGGER_DATA_BYTES)
        throw new ControlError(
          'invalid_request',
          `data takes ${size} bytes as JSON; a sample event's overrides may take at most ${MAX_TRIGGER_DATA_BYTES}.`,
        );
      const data = { ...sampleOrderEvent(body.event, state.clock.now()), ...body.data };
      return andThen(announce(state, body.tenant, body.event, data), ({ eventId, deliveries }) => ({
        eventId,
        event: body.event,
        tenant: body.tenant,
        data,
        deliveries,
      }));
    },
    clearFaults() {
      return andThen(state.faults.clear(), () => [] as Fault[]);
    },
    /** The rate limit every access gets from now on, or `false` to switch it off. */
    setRateLimit(settings: RateLimitSettings | false) {
      let checked: RateLimitSettings | false = false;
      try {
        if (settings) checked = checkRateLimitSettings(settings);
      } catch (err) {
        if (err instanceof RangeError) throw new ControlError('invalid_request', `${err.message}.`);
        throw err;
      }
      return andThen(state.rateLimits.configure(checked), () => ({ rateLimit: state.rateLimits.settings() }));
    },
    /**
     * Starts a new sequence of attempts for a logged delivery, exactly as the tenant's
     * POST …/deliveries/{id}/redeliver does, and records who asked.
     */
    redeliver(deliveryId: string, requestId = 'control') {
      const found = andThen(state.dispatcher.log.get(deliveryId), (existing) =>
        andThen(existing && state.receivers.get(existing.tenant, existing.receiverId), (receiver) =>
          andThen(receiver && state.dispatcher.redeliver(deliveryId, receiver), (delivery) => ({ receiver, delivery })),
        ),
      );
      return andThen(found, ({ receiver, delivery }) => {
        if (!receiver || !delivery)
          throw new ControlError('not_found', `No delivery ${deliveryId.slice(0, 60)} in the log.`);
        state.events.emit({
          type: 'webhook.redelivery_requested',
          tenant: receiver.tenant,
          ...caller(requestId),
          at: state.clock.now(),
          target: { type: 'delivery', id: deliveryId },
          data: { webhookId: receiver.id, deliveryId },
        });
        return { id: delivery.id, status: delivery.status, sequences: delivery.sequences };
      });
    },
    /** The client verdicts: every client rule judged over the calls observed since start or reset. */
    clientReport(filter: z.input<typeof ClientReportQuery> = {}) {
      if (!extra) throw new ControlError('not_found', 'Client verdicts are switched off in this sandbox.');
      return extra.verdicts.report(filter);
    },
    /**
     * Sends a registered receiver the scored sequence (see runReceiverCheck) and keeps the result for the report.
     * @example await sandbox.control.receiverCheck({ webhookId: 'wh_…' })
     */
    async receiverCheck(body: z.input<typeof ReceiverCheckBody>) {
      if (!extra) throw new ControlError('not_found', 'Client verdicts are switched off in this sandbox.');
      const tenants = body.tenant ? [body.tenant] : [...state.tenants.keys()];
      const found = await Promise.all(tenants.map((t) => state.receivers.get(t, body.webhookId)));
      const receiver = found.find((r) => r);
      if (!receiver) throw new ControlError('not_found', `No webhook receiver ${body.webhookId}.`);
      const result = await runReceiverCheck({
        receiver,
        signatureHeader: extra.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader,
        ...(extra.fetch ? { fetch: extra.fetch } : {}),
        ...(body.timeoutMs ? { timeoutMs: body.timeoutMs } : {}),
      });
      extra.verdicts.recordReceiverCheck(result);
      return result;
    },
  };
}
export type ControlOperations = ReturnType<typeof createControlOperations>;

/** The control plane as its HTTP surface calls it: in a shared sandbox the changes go through the operation log (promises). */
export type ControlPort = {
  [K in keyof ControlOperations]: (
    ...args: Parameters<ControlOperations[K]>
  ) => ReturnType<ControlOperations[K]> | Promise<Awaited<ReturnType<ControlOperations[K]>>>;
};
