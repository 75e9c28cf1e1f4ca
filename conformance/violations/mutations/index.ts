import type { SandboxOptions } from '../../../simulator/index.ts';
import { CHANNEL_OPERATORS } from './channel-operators.ts';
import { RESPONSE_OPERATORS } from './response-operators.ts';
import { STATE_OPERATORS } from './state-operators.ts';
import type { Mutant, MutationOperator } from './types.ts';

export type { Mutant, MutationOperator } from './types.ts';

/**
 * The mutation operators of the self-test, as data: each derives its mutants from the contract.
 * A new operator: write a MutationOperator and add it here.
 */
export const OPERATORS: readonly MutationOperator[] = [...RESPONSE_OPERATORS, ...CHANNEL_OPERATORS, ...STATE_OPERATORS];

/**
 * Every generated mutant, fresh (mutants keep per-sandbox state), with unique names.
 * @example allMutants().length // some 170
 */
export function allMutants(): Mutant[] {
  const mutants = OPERATORS.flatMap((o) => o.mutants());
  const names = new Set(mutants.map((m) => m.name));
  if (names.size !== mutants.length) throw new Error('two mutants share a name');
  return mutants;
}

/**
 * The simulator options that make a sandbox carry one mutant (both base URLs, or the alternate only).
 * @example createSandbox(mutantOptions(allMutants()[0]!))
 */
export function mutantOptions(m: Mutant): Pick<SandboxOptions, 'wrapCore' | 'webhooks'> {
  return {
    wrapCore: (core, base) =>
      base === 'alt' || m.where !== 'alt'
        ? { ...core, handle: (req) => m.handle(req, (r) => core.handle(r), core, base === 'alt' ? 'alt' : 'main') }
        : core,
    ...(m.webhooks ? { webhooks: m.webhooks } : {}),
  };
}
