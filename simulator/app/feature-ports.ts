// The repository ports of the stores that live beside their features (OAuth codes and refresh
// families, the webhook delivery queue), declared in the composition root, which may
// see every floor: state/ imports no feature. Type-only: nothing here is loaded at run time.
import type { CodeStore } from '../auth-server/code-store.ts';
import type { RefreshFamilies } from '../auth-server/refresh-families.ts';
import type { Implements, RepositoryPort } from '../state/ports/repositories.ts';
import type { createJobQueue } from '../webhooks/dispatcher-queue.ts';

/** The dispatcher's queue of deliveries waiting for an attempt (the jobs themselves are in-process). */
export type DeliveryQueueRepository = RepositoryPort<Pick<ReturnType<typeof createJobQueue>, 'enqueue' | 'finishFor'>>;
/** OAuth authorization codes (single use, 60 s). */
export type AuthorizationCodeRepository = RepositoryPort<CodeStore>;
/** Refresh-token families and their rotations. */
export type RefreshFamilyRepository = RepositoryPort<RefreshFamilies>;

/** Every feature's memory store satisfies its port (a change that breaks one fails `tsc` here). */
export type FeatureStoresSatisfyTheirPorts = [
  Implements<DeliveryQueueRepository, ReturnType<typeof createJobQueue>>,
  Implements<AuthorizationCodeRepository, CodeStore>,
  Implements<RefreshFamilyRepository, RefreshFamilies>,
];
