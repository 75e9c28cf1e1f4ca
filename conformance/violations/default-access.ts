import type { Core } from '../../simulator/index.ts';

/** A token of the fixtures' default client, minted once per core (violations that let calls in). */
const tokens = new WeakMap<Core, Promise<{ token: string; tenant: string }>>();

/** @example const { token, tenant } = await defaultAccess(core); */
export function defaultAccess(core: Core): Promise<{ token: string; tenant: string }> {
  let access = tokens.get(core);
  if (!access) {
    access = (async () => {
      const client = await core.state.clients.get(core.state.fixtures.defaultClient);
      const tenant = client?.tenants[0];
      if (!client || tenant === undefined) throw new Error('the fixtures name no default client with a tenant');
      const { token } = await core.state.tokens.issue({
        clientId: client.id,
        tenants: client.tenants,
        scopes: client.scopes,
        environment: client.environment,
        ttlSeconds: 24 * 3600,
      });
      return { token, tenant };
    })();
    tokens.set(core, access);
  }
  return access;
}
