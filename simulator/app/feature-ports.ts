// The repository ports of the stores that live beside their features (OAuth codes and refresh
// families), declared in the composition root, which may
// see every floor: state/ imports no feature. Type-only: nothing here is loaded at run time.
import type { CodeStore } from '../auth-server/code-store.ts';
import type { RefreshFamilies } from '../auth-server/refresh-families.ts';
import type { Implements, RepositoryPort } from '../state/ports/repositories.ts';

/** OAuth authorization codes (single use, 60 s). */
export type AuthorizationCodeRepository = RepositoryPort<CodeStore>;
/** Refresh-token families and their rotations. */
export type RefreshFamilyRepository = RepositoryPort<RefreshFamilies>;

/** Every feature's memory store satisfies its port (a change that breaks one fails `tsc` here). */
export type FeatureStoresSatisfyTheirPorts = [
  Implements<AuthorizationCodeRepository, CodeStore>,
  Implements<RefreshFamilyRepository, RefreshFamilies>,
];
