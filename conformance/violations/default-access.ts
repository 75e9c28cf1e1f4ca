import type { Core } from '../../simulator/index.ts';
import { must } from '../runner/invariant.ts';

/** A token of the fixtures' default client, minted once per core (violations that let calls in). */
const tokens = new WeakMap<Core, { token: string; tenant: string }>();

/** @example const { token, tenant } = defaultAccess(core); */
export function defaultAccess(core: Core) {
  let access = tokens.get(core);
  if (!access) {
    const client = must(
      core.state.clients.get(core.state.fixtures.defaultClient),
      'the fixtures name an existing default client',
    );
    const { token } = core.state.tokens.issue({
      clientId: client.id,
      tenants: client.tenants,
      scopes: client.scopes,
      environment: client.environment,
      ttlSeconds: 24 * 3600,
    });
    access = { token, tenant: must(client.tenants[0], 'a fixture client has at least one tenant') };
    tokens.set(core, access);
  }
  return access;
}
