// Round 58's shared memory of credentials (inputs and documents both use it): the credentials a call was sent
// with, and those of the last call that succeeded with them, as a server keeping "the last working credential" would.
import type { ProxyCall } from './proxy.ts';
import { home } from './proxy-helpers.ts';

/** Notes the credentials a call carries (what a service-side fallback or a cached gateway session would hold once they worked). */
export const remember = (c: ProxyCall) => {
  home(c);
  c.memory.set(
    'r58-pending-auth',
    c.headers.authorization ? [c.headers.authorization, c.headers['x-service-tenant']] : undefined,
  );
};
/** Keeps the credentials of the last call that succeeded with them. */
export const kept = (c: ProxyCall, a: { status: number }) => {
  const pending = c.memory.get('r58-pending-auth') as [string, string | undefined] | undefined;
  if (!pending || a.status >= 300) return;
  c.memory.set('r58-auth', pending[0]);
  if (pending[1]) c.memory.set('r58-auth-tenant', pending[1]);
};
