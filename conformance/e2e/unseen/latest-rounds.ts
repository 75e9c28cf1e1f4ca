// The unseen lists of rounds 36 and later (late-rounds.ts re-exports them; split off to keep that file short).
import type { UnseenViolation } from './proxy.ts';
import { ROUND36_ANSWERS } from './round36-answers.ts';
import { ROUND36_CHANNELS } from './round36-channels.ts';
import { ROUND36_DOCUMENTS } from './round36-documents.ts';
import { ROUND36_INPUTS } from './round36-inputs.ts';
import { ROUND37_ANSWERS } from './round37-answers.ts';
import { ROUND37_CHANNELS } from './round37-channels.ts';
import { ROUND37_DOCUMENTS } from './round37-documents.ts';
import { ROUND37_INPUTS } from './round37-inputs.ts';
import { ROUND38_ANSWERS } from './round38-answers.ts';
import { ROUND38_CHANNELS } from './round38-channels.ts';
import { ROUND38_DOCUMENTS } from './round38-documents.ts';
import { ROUND38_INPUTS } from './round38-inputs.ts';
import { ROUND39_ANSWERS } from './round39-answers.ts';
import { ROUND39_CHANNELS } from './round39-channels.ts';
import { ROUND39_DOCUMENTS } from './round39-documents.ts';
import { ROUND39_INPUTS } from './round39-inputs.ts';
import { ROUND40_ANSWERS } from './round40-answers.ts';
import { ROUND40_CHANNELS } from './round40-channels.ts';
import { ROUND40_DOCUMENTS } from './round40-documents.ts';
import { ROUND40_INPUTS } from './round40-inputs.ts';
import { ROUND41_ANSWERS } from './round41-answers.ts';
import { ROUND41_CHANNELS } from './round41-channels.ts';
import { ROUND41_DOCUMENTS } from './round41-documents.ts';
import { ROUND41_INPUTS } from './round41-inputs.ts';
import { ROUND42_ANSWERS } from './round42-answers.ts';
import { ROUND42_CHANNELS } from './round42-channels.ts';
import { ROUND42_DOCUMENTS } from './round42-documents.ts';
import { ROUND42_INPUTS } from './round42-inputs.ts';
import { ROUND43_ANSWERS } from './round43-answers.ts';
import { ROUND43_CHANNELS } from './round43-channels.ts';
import { ROUND43_DOCUMENTS } from './round43-documents.ts';
import { ROUND43_INPUTS } from './round43-inputs.ts';
import { ROUND44_ANSWERS } from './round44-answers.ts';
import { ROUND44_CHANNELS } from './round44-channels.ts';
import { ROUND44_DOCUMENTS } from './round44-documents.ts';
import { ROUND44_INPUTS } from './round44-inputs.ts';
import { ROUND45_ANSWERS } from './round45-answers.ts';
import { ROUND45_CHANNELS } from './round45-channels.ts';
import { ROUND45_DOCUMENTS } from './round45-documents.ts';
import { ROUND45_INPUTS } from './round45-inputs.ts';
import { ROUND46_ANSWERS } from './round46-answers.ts';
import { ROUND46_CHANNELS } from './round46-channels.ts';
import { ROUND46_DOCUMENTS } from './round46-documents.ts';
import { ROUND46_INPUTS } from './round46-inputs.ts';
import { ROUND47_ANSWERS } from './round47-answers.ts';
import { ROUND47_CHANNELS } from './round47-channels.ts';
import { ROUND47_DOCUMENTS } from './round47-documents.ts';
import { ROUND47_INPUTS } from './round47-inputs.ts';

/** The thirty-fifth list (round 36): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND36: readonly UnseenViolation[] = [
  ...ROUND36_ANSWERS,
  ...ROUND36_INPUTS,
  ...ROUND36_DOCUMENTS,
  ...ROUND36_CHANNELS,
];

/** The thirty-sixth list (round 37): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND37: readonly UnseenViolation[] = [
  ...ROUND37_ANSWERS,
  ...ROUND37_INPUTS,
  ...ROUND37_DOCUMENTS,
  ...ROUND37_CHANNELS,
];

/** The thirty-seventh list (round 38): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND38: readonly UnseenViolation[] = [
  ...ROUND38_ANSWERS,
  ...ROUND38_INPUTS,
  ...ROUND38_DOCUMENTS,
  ...ROUND38_CHANNELS,
];

/** The thirty-eighth list (round 39): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND39: readonly UnseenViolation[] = [
  ...ROUND39_ANSWERS,
  ...ROUND39_INPUTS,
  ...ROUND39_DOCUMENTS,
  ...ROUND39_CHANNELS,
];

/** The thirty-ninth list (round 40): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND40: readonly UnseenViolation[] = [
  ...ROUND40_ANSWERS,
  ...ROUND40_INPUTS,
  ...ROUND40_DOCUMENTS,
  ...ROUND40_CHANNELS,
];

/** The fortieth list (round 41): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND41: readonly UnseenViolation[] = [
  ...ROUND41_ANSWERS,
  ...ROUND41_INPUTS,
  ...ROUND41_DOCUMENTS,
  ...ROUND41_CHANNELS,
];

/** The forty-first list (round 42): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND42: readonly UnseenViolation[] = [
  ...ROUND42_ANSWERS,
  ...ROUND42_INPUTS,
  ...ROUND42_DOCUMENTS,
  ...ROUND42_CHANNELS,
];

/** The forty-third list (round 43): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND43: readonly UnseenViolation[] = [
  ...ROUND43_ANSWERS,
  ...ROUND43_INPUTS,
  ...ROUND43_DOCUMENTS,
  ...ROUND43_CHANNELS,
];

/** The forty-fourth list (round 44): a second outsider of session 28, who read none of the kit's checks. */
export const UNSEEN_ROUND44: readonly UnseenViolation[] = [
  ...ROUND44_ANSWERS,
  ...ROUND44_INPUTS,
  ...ROUND44_DOCUMENTS,
  ...ROUND44_CHANNELS,
];

/** The forty-fifth list (round 45): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND45: readonly UnseenViolation[] = [
  ...ROUND45_ANSWERS,
  ...ROUND45_INPUTS,
  ...ROUND45_DOCUMENTS,
  ...ROUND45_CHANNELS,
];

/** The forty-sixth list (round 46): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND46: readonly UnseenViolation[] = [
  ...ROUND46_ANSWERS,
  ...ROUND46_INPUTS,
  ...ROUND46_DOCUMENTS,
  ...ROUND46_CHANNELS,
];

/** The forty-seventh list (round 47): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND47: readonly UnseenViolation[] = [
  ...ROUND47_ANSWERS,
  ...ROUND47_INPUTS,
  ...ROUND47_DOCUMENTS,
  ...ROUND47_CHANNELS,
];
