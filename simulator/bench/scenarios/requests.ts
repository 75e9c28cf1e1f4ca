import type { LoadSpec } from '../lib/load.ts';

const API = '/api/public/v1';

/** A connection body valid against the built-in hospitality fixtures. */
export const CONNECTION_BODY = JSON.stringify({
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Harbour Kitchen Pier 4',
  capabilities: ['orders.read', 'menu.read', 'orders.create'],
});

/** The same replay key for every request of a replay run (created once before the run). */
export const REPLAY_KEY = 'bench-replay-0001';

/**
 * The request shapes the scenarios and the profiler drive, for one access (token + tenant).
 * @example runLoad(sim.baseUrl, requestSpecs(sim).providers, opts)
 */
export type RequestName = 'providers' | 'connectors' | 'capabilities' | 'connections' | 'replay';

export function requestSpecs(access: { token: string; tenant: string }): Record<RequestName, LoadSpec> {
  const auth = { authorization: `Bearer ${access.token}`, 'x-service-tenant': access.tenant };
  const json = { ...auth, 'content-type': 'application/json' };
  return {
    providers: { method: 'GET', path: `${API}/providers`, headers: auth },
    connectors: { method: 'GET', path: `${API}/connectors?category=pos&capability=orders.read`, headers: auth },
    capabilities: {
      method: 'POST',
      path: `${API}/capabilities`,
      headers: json,
      body: JSON.stringify({
        connectorId: 'tillcraft-pos-cloud',
        capability: 'payments.refund',
        environment: 'production',
      }),
    },
    connections: {
      method: 'POST',
      path: `${API}/connections`,
      headers: { ...json, 'idempotency-key': 'bench-[<id>]' },
      body: CONNECTION_BODY,
      freshIds: true,
    },
    replay: {
      method: 'POST',
      path: `${API}/connections`,
      headers: { ...json, 'idempotency-key': REPLAY_KEY },
      body: CONNECTION_BODY,
    },
  };
}
