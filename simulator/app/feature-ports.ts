// The memory stores that live beside their features (OAuth codes and refresh families) checked against
// their ports, which are in state/ports (their services stand on them). The composition root may see every
// floor: state/ imports no feature. Type-only: nothing here is loaded at run time.
import type { createCodeStore } from '../auth-server/code-store.ts';
import type { createRefreshFamilyStore } from '../auth-server/refresh-families.ts';
import type { AuthorizationCodeRepository } from '../state/ports/authorization-codes.ts';
import type { RefreshFamilyRepository } from '../state/ports/refresh-families.ts';
import type { Implements } from '../state/ports/repositories.ts';

/** OAuth authorization codes and refresh-token families: their ports are in state/ports (the services stand on them). */
export type { AuthorizationCodeRepository, RefreshFamilyRepository };

/** Every feature's memory store satisfies its port (a change that breaks one fails `tsc` here). */
export type FeatureStoresSatisfyTheirPorts = [
  Implements<AuthorizationCodeRepository, ReturnType<typeof createCodeStore>>,
  Implements<RefreshFamilyRepository, ReturnType<typeof createRefreshFamilyStore>>,
];
