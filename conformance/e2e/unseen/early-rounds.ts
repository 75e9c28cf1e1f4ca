// The first lists of unseen violations (rounds 2 to 15), one constant per round; index.ts offers them with the rest.
import { ROUND3_ANSWERS } from './round3-answers.ts';
import { ROUND3_REQUESTS } from './round3-requests.ts';
import { ROUND4_ANSWERS } from './round4-answers.ts';
import { ROUND4_CHANNELS } from './round4-channels.ts';
import { ROUND4_KEYS } from './round4-keys.ts';
import { ROUND5_ANSWERS } from './round5-answers.ts';
import { ROUND5_CALLERS } from './round5-callers.ts';
import { ROUND5_EFFECTS } from './round5-effects.ts';
import { ROUND5_ERRORS } from './round5-errors.ts';
import { ROUND6_CALLERS } from './round6-callers.ts';
import { ROUND6_CHANNELS } from './round6-channels.ts';
import { ROUND6_DOCUMENTS } from './round6-documents.ts';
import { ROUND6_EFFECTS } from './round6-effects.ts';
import { ROUND7_ANSWERS } from './round7-answers.ts';
import { ROUND7_CHANNELS } from './round7-channels.ts';
import { ROUND7_EFFECTS } from './round7-effects.ts';
import { ROUND7_FIELDS } from './round7-fields.ts';
import { ROUND8_ANSWERS } from './round8-answers.ts';
import { ROUND8_CHANNELS } from './round8-channels.ts';
import { ROUND8_DOCUMENTS } from './round8-documents.ts';
import { ROUND8_KEYS } from './round8-keys.ts';
import { ROUND9_ANSWERS } from './round9-answers.ts';
import { ROUND9_CHANNELS } from './round9-channels.ts';
import { ROUND9_FIELDS } from './round9-fields.ts';
import { ROUND10_ANSWERS } from './round10-answers.ts';
import { ROUND10_CHANNELS } from './round10-channels.ts';
import { ROUND10_DOCUMENTS } from './round10-documents.ts';
import { ROUND10_EFFECTS } from './round10-effects.ts';
import { ROUND11_ANSWERS } from './round11-answers.ts';
import { ROUND11_CHANNELS } from './round11-channels.ts';
import { ROUND11_DOCUMENTS } from './round11-documents.ts';
import { ROUND11_INPUTS } from './round11-inputs.ts';
import { ROUND12_ANSWERS } from './round12-answers.ts';
import { ROUND12_CHANNELS } from './round12-channels.ts';
import { ROUND12_DOCUMENTS } from './round12-documents.ts';
import { ROUND12_INPUTS } from './round12-inputs.ts';
import { ROUND13_ANSWERS } from './round13-answers.ts';
import { ROUND13_CHANNELS } from './round13-channels.ts';
import { ROUND13_DOCUMENTS } from './round13-documents.ts';
import { ROUND13_INPUTS } from './round13-inputs.ts';
import { ROUND14_ANSWERS } from './round14-answers.ts';
import { ROUND14_CHANNELS } from './round14-channels.ts';
import { ROUND14_DOCUMENTS } from './round14-documents.ts';
import { ROUND14_INPUTS } from './round14-inputs.ts';
import { ROUND15_ANSWERS } from './round15-answers.ts';
import { ROUND15_CHANNELS } from './round15-channels.ts';
import { ROUND15_DOCUMENTS } from './round15-documents.ts';
import { ROUND15_INPUTS } from './round15-inputs.ts';
import { ANSWER_VIOLATIONS } from './violations-answers.ts';
import { CHANNEL_VIOLATIONS } from './violations-channels.ts';

/** Every unseen violation of the proxy: none of them is among conformance/violations/ or the mutation operators. */
export const UNSEEN: readonly import('./proxy.ts').UnseenViolation[] = [...ANSWER_VIOLATIONS, ...CHANNEL_VIOLATIONS];

/** The second list (round 3): written later, by a fresh outsider, against the kit as it then stood. */
export const UNSEEN_ROUND3: readonly import('./proxy.ts').UnseenViolation[] = [...ROUND3_REQUESTS, ...ROUND3_ANSWERS];

/** The third list (round 4): a fresh outsider again, different in kind from every earlier list. */
export const UNSEEN_ROUND4: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND4_KEYS,
  ...ROUND4_ANSWERS,
  ...ROUND4_CHANNELS,
];

/** The fourth list (round 5): a fresh outsider again, each violation under one condition, none of an earlier kind. */
export const UNSEEN_ROUND5: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND5_ANSWERS,
  ...ROUND5_ERRORS,
  ...ROUND5_CALLERS,
  ...ROUND5_EFFECTS,
];

/** The fifth list (round 6): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND6: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND6_DOCUMENTS,
  ...ROUND6_CALLERS,
  ...ROUND6_EFFECTS,
  ...ROUND6_CHANNELS,
];

/** The sixth list (round 7): a fresh outsider again; partial (written under time pressure), none of an earlier kind. */
export const UNSEEN_ROUND7: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND7_ANSWERS,
  ...ROUND7_FIELDS,
  ...ROUND7_CHANNELS,
  ...ROUND7_EFFECTS,
];

/** The seventh list (round 8): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND8: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND8_DOCUMENTS,
  ...ROUND8_KEYS,
  ...ROUND8_CHANNELS,
  ...ROUND8_ANSWERS,
];

/** The eighth list (round 9): a fresh outsider again, under time pressure (24), none of an earlier kind. */
export const UNSEEN_ROUND9: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND9_ANSWERS,
  ...ROUND9_FIELDS,
  ...ROUND9_CHANNELS,
];

/** The ninth list (round 10): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND10: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND10_DOCUMENTS,
  ...ROUND10_ANSWERS,
  ...ROUND10_EFFECTS,
  ...ROUND10_CHANNELS,
];

/** The tenth list (round 11): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND11: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND11_DOCUMENTS,
  ...ROUND11_ANSWERS,
  ...ROUND11_INPUTS,
  ...ROUND11_CHANNELS,
];

/** The eleventh list (round 12): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND12: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND12_DOCUMENTS,
  ...ROUND12_ANSWERS,
  ...ROUND12_INPUTS,
  ...ROUND12_CHANNELS,
];

/** The twelfth list (round 13): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND13: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND13_DOCUMENTS,
  ...ROUND13_ANSWERS,
  ...ROUND13_INPUTS,
  ...ROUND13_CHANNELS,
];

/** The thirteenth list (round 14): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND14: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND14_DOCUMENTS,
  ...ROUND14_ANSWERS,
  ...ROUND14_INPUTS,
  ...ROUND14_CHANNELS,
];

/** The fourteenth list (round 15): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND15: readonly import('./proxy.ts').UnseenViolation[] = [
  ...ROUND15_DOCUMENTS,
  ...ROUND15_ANSWERS,
  ...ROUND15_INPUTS,
  ...ROUND15_CHANNELS,
];
