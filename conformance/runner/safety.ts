import type { CheckDef, ProfileName } from './check.ts';

export interface Safety {
  profile: ProfileName;
  production: boolean;
  /** Whether modifying checks may run. */
  mutationsAllowed: boolean;
}

/**
 * The read-only profile is the default whenever the target is production; even a full profile
 * makes no modifying call there unless mutations were allowed explicitly.
 * @example decideSafety({ environment: 'production', allowMutations: false }) // { profile: 'read-only', ... }
 */
export function decideSafety(o: { profile?: ProfileName; environment?: string; allowMutations: boolean }): Safety {
  const production = o.environment === 'production';
  const profile = o.profile ?? (production ? 'read-only' : 'full');
  return { profile, production, mutationsAllowed: profile === 'full' && (!production || o.allowMutations) };
}

/** Why the run must not execute this check, or undefined when it may. */
export function mutationSkipReason(check: CheckDef, safety: Safety): string | undefined {
  if (!check.mutating || safety.mutationsAllowed) return undefined;
  if (safety.profile === 'read-only') return 'the read-only profile makes no modifying call';
  return 'the target is production: modifying checks need --allow-mutations';
}
