import type { z } from 'zod';
import type { ConnectionState } from '../state/connection-lifecycle.ts';
import { TransitionError } from '../state/connections-store.ts';
import type { Fault } from '../state/fault-store.ts';
import type { SandboxState } from '../state/sandbox-state.ts';
import type { AddFaultBody } from './routes.ts';

export class ControlError extends Error {
  readonly code: 'not_found' | 'invalid_request';
  constructor(code: 'not_found' | 'invalid_request', message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * The control plane as library functions: the /_sandbox routes call these, and MSW users call them
 * directly through `sandbox.control`.
 * @example sandbox.control.setConnectionState(id, 'paused'); sandbox.control.advanceClock(3600);
 */
export function createControlOperations(state: SandboxState) {
  const caller = (requestId: string) => ({ actor: 'sandbox-admin', requestId });
  return {
    summary() {
      return {
        connections: state.connections.count(),
        idempotencyRecords: state.idempotency.size(),
        clockOffsetMs: state.clock.offset(),
        now: new Date(state.clock.now()).toISOString(),
        faults: state.faults.list(),
      };
    },
    async reset() {
      await state.reset();
      return this.summary();
    },
    setConnectionState(connectionId: string, to: Exclude<ConnectionState, 'pending'>, requestId = 'control') {
      if (!state.connections.find(connectionId)) throw new ControlError('not_found', `No connection ${connectionId}.`);
      try {
        return state.connections.setState(connectionId, to, caller(requestId));
      } catch (err) {
        if (err instanceof TransitionError) throw new ControlError('invalid_request', `${err.message}.`);
        throw err;
      }
    },
    clock() {
      return { now: new Date(state.clock.now()).toISOString(), offsetMs: state.clock.offset() };
    },
    advanceClock(seconds: number) {
      state.clock.advance(seconds * 1000);
      return this.clock();
    },
    addFault(fault: z.input<typeof AddFaultBody>): Fault {
      const { count = 1, ...rest } = fault;
      return state.faults.add({ ...rest, remaining: count });
    },
    listFaults: () => state.faults.list(),
    clearFaults() {
      state.faults.clear();
      return [] as Fault[];
    },
  };
}
export type ControlOperations = ReturnType<typeof createControlOperations>;
