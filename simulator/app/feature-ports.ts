// The repository ports of the stores that live beside their features (stream feeds, audit chains, the
// webhook delivery queue), declared in the composition root, which may see every floor: state/ imports
// no feature. The OAuth codes and refresh families have their ports in state/ports (their services stand
// on them); their memory stores are checked here. Type-only: nothing here is loaded at run time.
import type { AuditLog } from '../audit/hash-chain.ts';
import type { createCodeStore } from '../auth-server/code-store.ts';
import type { createRefreshFamilyStore } from '../auth-server/refresh-families.ts';
import type { FeedStore } from '../events/feed.ts';
import type { AuthorizationCodeRepository } from '../state/ports/authorization-codes.ts';
import type { RefreshFamilyRepository } from '../state/ports/refresh-families.ts';
import type { Implements, RepositoryPort } from '../state/ports/repositories.ts';
import type { createJobQueue } from '../webhooks/dispatcher-queue.ts';

/** The dispatcher's queue of deliveries waiting for an attempt (the jobs themselves are in-process). */
export type DeliveryQueueRepository = RepositoryPort<Pick<ReturnType<typeof createJobQueue>, 'enqueue' | 'finishFor'>>;
/** Stream feeds: retained messages and ids per feed; subscribers stay with the process that holds their stream. */
export type FeedRepository = RepositoryPort<
  FeedStore,
  'subscribe' | 'attach' | 'detach' | 'subscriberCount' | 'retention'
>;
/** Audit chains per tenant. */
export type AuditRepository = RepositoryPort<AuditLog>;
/** OAuth authorization codes and refresh-token families: their ports are in state/ports (the services stand on them). */
export type { AuthorizationCodeRepository, RefreshFamilyRepository };

/** Every feature's memory store satisfies its port (a change that breaks one fails `tsc` here). */
export type FeatureStoresSatisfyTheirPorts = [
  Implements<DeliveryQueueRepository, ReturnType<typeof createJobQueue>>,
  Implements<FeedRepository, FeedStore>,
  Implements<AuditRepository, AuditLog>,
  Implements<AuthorizationCodeRepository, ReturnType<typeof createCodeStore>>,
  Implements<RefreshFamilyRepository, ReturnType<typeof createRefreshFamilyStore>>,
];
