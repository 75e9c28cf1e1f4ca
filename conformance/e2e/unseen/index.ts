import { ANSWER_VIOLATIONS } from './violations-answers.ts';
import { CHANNEL_VIOLATIONS } from './violations-channels.ts';

export { unseenTarget, type UnseenViolation } from './proxy.ts';

/** Every unseen violation of the proxy: none of them is among conformance/violations/ or the mutation operators. */
export const UNSEEN: readonly import('./proxy.ts').UnseenViolation[] = [...ANSWER_VIOLATIONS, ...CHANNEL_VIOLATIONS];
