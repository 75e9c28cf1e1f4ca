import type { Violation } from '../types.ts';

/** One generated violation: a deliberate break the kit should notice (no list of catching checks: the score judges). */
export type Mutant = Omit<Violation, 'catches'> & { operator: string };

/**
 * A mutation operator: a plain function from the contract to the mutants it makes. Adding one is
 * one entry in OPERATORS (index.ts).
 */
export interface MutationOperator {
  name: string;
  /** What it breaks, in one line. */
  description: string;
  mutants(): Mutant[];
}
