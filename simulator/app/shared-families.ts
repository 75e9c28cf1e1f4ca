// What a snapshot keeps of the refresh-token families (log compaction): the authorization server's
// store has no records to write through, so the shared sandbox follows every start, rotation and
// revocation it shares or applies, and a replica started from a snapshot replays them into its own
// store (adopt, then each rotation, at the time it was made; a revoked family stays revoked).
import type { RefreshFamilyService, RefreshGrant } from '../services/refresh-family-service.ts';

/** As the store: the latest 64 tokens of a family, at most 20,000 families (oldest forgotten first). */
const MAX_STEPS = 64;
const MAX_FAMILIES = 20_000;

export interface FamilyTrail {
  family: string;
  grant: RefreshGrant;
  /** Token hashes in the order they were issued, with the (sandbox) time of each. */
  steps: [at: number, hash: string][];
  revoked: boolean;
}

/**
 * @example const trails = familyTrails(() => clock.now()); trails.started(f, grant, h); trails.restore(store, dumped, clock.during);
 */
export function familyTrails(now: () => number) {
  const trails = new Map<string, FamilyTrail>();
  return {
    started(family: string, grant: RefreshGrant, hash: string) {
      if (trails.has(family)) return;
      trails.set(family, { family, grant, steps: [[now(), hash]], revoked: false });
      if (trails.size > MAX_FAMILIES) {
        const oldest = trails.keys().next().value;
        if (oldest !== undefined) trails.delete(oldest);
      }
    },
    rotated(family: string, next: string) {
      const t = trails.get(family);
      if (!t || t.steps.some(([, h]) => h === next)) return;
      t.steps.push([now(), next]);
      if (t.steps.length > MAX_STEPS) t.steps.shift();
    },
    revoked(family: string) {
      const t = trails.get(family);
      if (t) t.revoked = true;
    },
    dump: (): FamilyTrail[] => [...trails.values()],
    /** Replays dumped trails into a fresh store (and keeps following them). */
    restore(store: RefreshFamilyService, dumped: FamilyTrail[], during: <T>(at: number, fn: () => T) => T) {
      for (const t of dumped) {
        trails.set(t.family, t);
        const [first, ...rest] = t.steps;
        if (!first) continue;
        during(first[0], () => store.adopt(t.family, t.grant, first[1]));
        let spent = first[1];
        for (const [at, hash] of rest) {
          during(at, () => store.applyRotation(spent, t.family, hash));
          spent = hash;
        }
        // Its access tokens are in the snapshot's stores already (revoked ones are not).
        if (t.revoked) store.revokeFamily(t.family, false);
      }
    },
  };
}
