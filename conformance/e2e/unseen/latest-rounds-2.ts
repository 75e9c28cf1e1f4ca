// The unseen lists of rounds 48 and later (latest-rounds.ts would pass 150 lines with another round).
import type { UnseenViolation } from './proxy.ts';
import { ROUND48_ANSWERS } from './round48-answers.ts';
import { ROUND48_CHANNELS } from './round48-channels.ts';
import { ROUND48_DOCUMENTS } from './round48-documents.ts';
import { ROUND48_INPUTS } from './round48-inputs.ts';
import { ROUND49_ANSWERS } from './round49-answers.ts';
import { ROUND49_CHANNELS } from './round49-channels.ts';
import { ROUND49_DOCUMENTS } from './round49-documents.ts';
import { ROUND49_INPUTS } from './round49-inputs.ts';
import { ROUND50_ANSWERS } from './round50-answers.ts';
import { ROUND50_CHANNELS } from './round50-channels.ts';
import { ROUND50_DOCUMENTS } from './round50-documents.ts';
import { ROUND50_INPUTS } from './round50-inputs.ts';
import { ROUND51_ANSWERS } from './round51-answers.ts';
import { ROUND51_CHANNELS } from './round51-channels.ts';
import { ROUND51_DOCUMENTS } from './round51-documents.ts';
import { ROUND51_INPUTS } from './round51-inputs.ts';
import { ROUND52_ANSWERS } from './round52-answers.ts';
import { ROUND52_CHANNELS } from './round52-channels.ts';
import { ROUND52_DOCUMENTS } from './round52-documents.ts';
import { ROUND52_INPUTS } from './round52-inputs.ts';
import { ROUND53_ANSWERS } from './round53-answers.ts';
import { ROUND53_CHANNELS } from './round53-channels.ts';
import { ROUND53_DOCUMENTS } from './round53-documents.ts';
import { ROUND53_INPUTS } from './round53-inputs.ts';
import { ROUND54_ANSWERS } from './round54-answers.ts';
import { ROUND54_CHANNELS } from './round54-channels.ts';
import { ROUND54_DOCUMENTS } from './round54-documents.ts';
import { ROUND54_INPUTS } from './round54-inputs.ts';
import { ROUND55_ANSWERS } from './round55-answers.ts';
import { ROUND55_CHANNELS } from './round55-channels.ts';
import { ROUND55_DOCUMENTS } from './round55-documents.ts';
import { ROUND55_INPUTS } from './round55-inputs.ts';
import { ROUND56_ANSWERS } from './round56-answers.ts';
import { ROUND56_CHANNELS } from './round56-channels.ts';
import { ROUND56_DOCUMENTS } from './round56-documents.ts';
import { ROUND56_INPUTS } from './round56-inputs.ts';
import { ROUND57_ANSWERS } from './round57-answers.ts';
import { ROUND57_CHANNELS } from './round57-channels.ts';
import { ROUND57_DOCUMENTS } from './round57-documents.ts';
import { ROUND57_INPUTS } from './round57-inputs.ts';
import { ROUND58_ANSWERS } from './round58-answers.ts';
import { ROUND58_CHANNELS } from './round58-channels.ts';
import { ROUND58_DOCUMENTS } from './round58-documents.ts';
import { ROUND58_INPUTS } from './round58-inputs.ts';
import { ROUND59_ANSWERS } from './round59-answers.ts';
import { ROUND59_CHANNELS } from './round59-channels.ts';
import { ROUND59_DOCUMENTS } from './round59-documents.ts';
import { ROUND59_INPUTS } from './round59-inputs.ts';
import { ROUND60_ANSWERS } from './round60-answers.ts';
import { ROUND60_CHANNELS } from './round60-channels.ts';
import { ROUND60_DOCUMENTS } from './round60-documents.ts';
import { ROUND60_INPUTS } from './round60-inputs.ts';

/** The forty-eighth list (round 48): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND48: readonly UnseenViolation[] = [
  ...ROUND48_ANSWERS,
  ...ROUND48_INPUTS,
  ...ROUND48_DOCUMENTS,
  ...ROUND48_CHANNELS,
];

/** The forty-ninth list (round 49): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND49: readonly UnseenViolation[] = [
  ...ROUND49_ANSWERS,
  ...ROUND49_INPUTS,
  ...ROUND49_DOCUMENTS,
  ...ROUND49_CHANNELS,
];

/** The fiftieth list (round 50): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND50: readonly UnseenViolation[] = [
  ...ROUND50_ANSWERS,
  ...ROUND50_INPUTS,
  ...ROUND50_DOCUMENTS,
  ...ROUND50_CHANNELS,
];

/** The fifty-first list (round 51): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND51: readonly UnseenViolation[] = [
  ...ROUND51_ANSWERS,
  ...ROUND51_INPUTS,
  ...ROUND51_DOCUMENTS,
  ...ROUND51_CHANNELS,
];

/** The fifty-second list (round 52): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND52: readonly UnseenViolation[] = [
  ...ROUND52_ANSWERS,
  ...ROUND52_INPUTS,
  ...ROUND52_DOCUMENTS,
  ...ROUND52_CHANNELS,
];

/** The fifty-third list (round 53): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND53: readonly UnseenViolation[] = [
  ...ROUND53_ANSWERS,
  ...ROUND53_INPUTS,
  ...ROUND53_DOCUMENTS,
  ...ROUND53_CHANNELS,
];

/** The fifty-fourth list (round 54): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND54: readonly UnseenViolation[] = [
  ...ROUND54_ANSWERS,
  ...ROUND54_INPUTS,
  ...ROUND54_DOCUMENTS,
  ...ROUND54_CHANNELS,
];

/** The fifty-fifth list (round 55): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND55: readonly UnseenViolation[] = [
  ...ROUND55_ANSWERS,
  ...ROUND55_INPUTS,
  ...ROUND55_DOCUMENTS,
  ...ROUND55_CHANNELS,
];

/** The fifty-sixth list (round 56): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND56: readonly UnseenViolation[] = [
  ...ROUND56_ANSWERS,
  ...ROUND56_INPUTS,
  ...ROUND56_DOCUMENTS,
  ...ROUND56_CHANNELS,
];

/** The fifty-seventh list (round 57): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND57: readonly UnseenViolation[] = [
  ...ROUND57_ANSWERS,
  ...ROUND57_INPUTS,
  ...ROUND57_DOCUMENTS,
  ...ROUND57_CHANNELS,
];

/** The fifty-eighth list (round 58): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND58: readonly UnseenViolation[] = [
  ...ROUND58_ANSWERS,
  ...ROUND58_INPUTS,
  ...ROUND58_DOCUMENTS,
  ...ROUND58_CHANNELS,
];

/** The fifty-ninth list (round 59): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND59: readonly UnseenViolation[] = [
  ...ROUND59_ANSWERS,
  ...ROUND59_INPUTS,
  ...ROUND59_DOCUMENTS,
  ...ROUND59_CHANNELS,
];

/** The sixtieth list (round 60): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND60: readonly UnseenViolation[] = [
  ...ROUND60_ANSWERS,
  ...ROUND60_INPUTS,
  ...ROUND60_DOCUMENTS,
  ...ROUND60_CHANNELS,
];
