// The consent the refresh-family tests start their grants with (the repository's, the service's and the
// data dir's tests): one client, one person, one tenant, one scope. A fresh object per file, so a store
// holding it by reference shares nothing between test files of one worker.
import type { RefreshGrant } from '../state/ports/refresh-families.ts';

/** @example const grant = testGrant(); families.start(grant); */
export const testGrant = (): RefreshGrant => ({
  clientId: 'app',
  personId: 'p',
  tenants: ['t'],
  scopes: ['catalog:read'],
  environment: 'sandbox',
});
