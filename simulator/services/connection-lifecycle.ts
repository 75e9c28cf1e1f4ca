import { CONNECTION_STATES, type ConnectionState } from '../state/ports/connections.ts';

/**
 * The simulator's connection lifecycle (the interface leaves states and transitions open):
 * pending -> active after the activation delay; active <-> paused; any -> revoked (final).
 */
export { CONNECTION_STATES, type ConnectionState };

const ALLOWED: Record<ConnectionState, readonly ConnectionState[]> = {
  pending: ['active', 'revoked'],
  active: ['paused', 'revoked'],
  paused: ['active', 'revoked'],
  revoked: [],
};

/** @example canTransition('paused', 'active') // true; canTransition('revoked', 'active') // false */
export function canTransition(from: ConnectionState, to: ConnectionState): boolean {
  return ALLOWED[from].includes(to);
}

/** A transition the lifecycle does not allow (the control plane answers it with invalid_request). */
export class TransitionError extends Error {
  readonly from: ConnectionState;
  readonly to: ConnectionState;
  constructor(from: ConnectionState, to: ConnectionState) {
    super(`a ${from} connection cannot become ${to}`);
    this.from = from;
    this.to = to;
  }
}

/** The nextStep text of each state (shown on every Connection). */
export function nextStepFor(state: ConnectionState): string {
  switch (state) {
    case 'pending':
      return 'Wait for activation; the status stream announces connection.state_changed when the connection is active.';
    case 'active':
      return 'Use the booked capabilities; check each one with POST /api/public/v1/capabilities before calling.';
    case 'paused':
      return 'The connection is paused: its capabilities are denied until it is resumed.';
    case 'revoked':
      return 'The connection is revoked for good: create a new connection to reconnect.';
  }
}
