// The unseen lists of rounds 16 and later (index.ts re-exports them; split off to keep index.ts short).
import type { UnseenViolation } from './proxy.ts';
import { ROUND16_ANSWERS } from './round16-answers.ts';
import { ROUND16_CHANNELS } from './round16-channels.ts';
import { ROUND16_DOCUMENTS } from './round16-documents.ts';
import { ROUND16_INPUTS } from './round16-inputs.ts';
import { ROUND17_ANSWERS } from './round17-answers.ts';
import { ROUND17_CHANNELS } from './round17-channels.ts';
import { ROUND17_DOCUMENTS } from './round17-documents.ts';
import { ROUND17_INPUTS } from './round17-inputs.ts';
import { ROUND18_ANSWERS } from './round18-answers.ts';
import { ROUND18_CHANNELS } from './round18-channels.ts';
import { ROUND18_DOCUMENTS } from './round18-documents.ts';
import { ROUND18_INPUTS } from './round18-inputs.ts';
import { ROUND19_ANSWERS } from './round19-answers.ts';
import { ROUND19_CHANNELS } from './round19-channels.ts';
import { ROUND19_DOCUMENTS } from './round19-documents.ts';
import { ROUND19_INPUTS } from './round19-inputs.ts';
import { ROUND20_ANSWERS } from './round20-answers.ts';
import { ROUND20_CHANNELS } from './round20-channels.ts';
import { ROUND20_DOCUMENTS } from './round20-documents.ts';
import { ROUND20_INPUTS } from './round20-inputs.ts';
import { ROUND21_ANSWERS } from './round21-answers.ts';
import { ROUND21_CHANNELS } from './round21-channels.ts';
import { ROUND21_DOCUMENTS } from './round21-documents.ts';
import { ROUND21_INPUTS } from './round21-inputs.ts';
import { ROUND22_ANSWERS } from './round22-answers.ts';
import { ROUND22_CHANNELS } from './round22-channels.ts';
import { ROUND22_DOCUMENTS } from './round22-documents.ts';
import { ROUND22_INPUTS } from './round22-inputs.ts';
import { ROUND23_ANSWERS } from './round23-answers.ts';
import { ROUND23_CHANNELS } from './round23-channels.ts';
import { ROUND23_DOCUMENTS } from './round23-documents.ts';
import { ROUND23_INPUTS } from './round23-inputs.ts';
import { ROUND24_ANSWERS } from './round24-answers.ts';
import { ROUND24_CHANNELS } from './round24-channels.ts';
import { ROUND24_DOCUMENTS } from './round24-documents.ts';
import { ROUND24_INPUTS } from './round24-inputs.ts';
import { ROUND25_ANSWERS } from './round25-answers.ts';
import { ROUND25_CHANNELS } from './round25-channels.ts';
import { ROUND25_DOCUMENTS } from './round25-documents.ts';
import { ROUND25_INPUTS } from './round25-inputs.ts';
import { ROUND26_ANSWERS } from './round26-answers.ts';
import { ROUND26_CHANNELS } from './round26-channels.ts';
import { ROUND26_DOCUMENTS } from './round26-documents.ts';
import { ROUND26_INPUTS } from './round26-inputs.ts';
import { ROUND27_ANSWERS } from './round27-answers.ts';
import { ROUND27_CHANNELS } from './round27-channels.ts';
import { ROUND27_DOCUMENTS } from './round27-documents.ts';
import { ROUND27_INPUTS } from './round27-inputs.ts';
import { ROUND28_ANSWERS } from './round28-answers.ts';
import { ROUND28_CHANNELS } from './round28-channels.ts';
import { ROUND28_DOCUMENTS } from './round28-documents.ts';
import { ROUND28_INPUTS } from './round28-inputs.ts';
import { ROUND29_ANSWERS } from './round29-answers.ts';
import { ROUND29_CHANNELS } from './round29-channels.ts';
import { ROUND29_DOCUMENTS } from './round29-documents.ts';
import { ROUND29_INPUTS } from './round29-inputs.ts';
import { ROUND30_ANSWERS } from './round30-answers.ts';
import { ROUND30_CHANNELS } from './round30-channels.ts';
import { ROUND30_DOCUMENTS } from './round30-documents.ts';
import { ROUND30_INPUTS } from './round30-inputs.ts';
import { ROUND31_ANSWERS } from './round31-answers.ts';
import { ROUND31_CHANNELS } from './round31-channels.ts';
import { ROUND31_DOCUMENTS } from './round31-documents.ts';
import { ROUND31_INPUTS } from './round31-inputs.ts';
import { ROUND32_ANSWERS } from './round32-answers.ts';
import { ROUND32_CHANNELS } from './round32-channels.ts';
import { ROUND32_DOCUMENTS } from './round32-documents.ts';
import { ROUND32_INPUTS } from './round32-inputs.ts';
import { ROUND33_ANSWERS } from './round33-answers.ts';
import { ROUND33_CHANNELS } from './round33-channels.ts';
import { ROUND33_DOCUMENTS } from './round33-documents.ts';
import { ROUND33_INPUTS } from './round33-inputs.ts';
import { ROUND34_ANSWERS } from './round34-answers.ts';
import { ROUND34_CHANNELS } from './round34-channels.ts';
import { ROUND34_DOCUMENTS } from './round34-documents.ts';
import { ROUND34_INPUTS } from './round34-inputs.ts';
import { ROUND35_ANSWERS } from './round35-answers.ts';
import { ROUND35_CHANNELS } from './round35-channels.ts';
import { ROUND35_DOCUMENTS } from './round35-documents.ts';
import { ROUND35_INPUTS } from './round35-inputs.ts';

/** The fifteenth list (round 16): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND16: readonly UnseenViolation[] = [
  ...ROUND16_DOCUMENTS,
  ...ROUND16_ANSWERS,
  ...ROUND16_INPUTS,
  ...ROUND16_CHANNELS,
];

/** The sixteenth list (round 17): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND17: readonly UnseenViolation[] = [
  ...ROUND17_DOCUMENTS,
  ...ROUND17_INPUTS,
  ...ROUND17_ANSWERS,
  ...ROUND17_CHANNELS,
];

/** The seventeenth list (round 18): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND18: readonly UnseenViolation[] = [
  ...ROUND18_ANSWERS,
  ...ROUND18_DOCUMENTS,
  ...ROUND18_INPUTS,
  ...ROUND18_CHANNELS,
];

/** The eighteenth list (round 19): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND19: readonly UnseenViolation[] = [
  ...ROUND19_ANSWERS,
  ...ROUND19_DOCUMENTS,
  ...ROUND19_INPUTS,
  ...ROUND19_CHANNELS,
];

/** The nineteenth list (round 20): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND20: readonly UnseenViolation[] = [
  ...ROUND20_ANSWERS,
  ...ROUND20_INPUTS,
  ...ROUND20_DOCUMENTS,
  ...ROUND20_CHANNELS,
];

/** The twentieth list (round 21): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND21: readonly UnseenViolation[] = [
  ...ROUND21_ANSWERS,
  ...ROUND21_INPUTS,
  ...ROUND21_DOCUMENTS,
  ...ROUND21_CHANNELS,
];

/** The twenty-first list (round 22): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND22: readonly UnseenViolation[] = [
  ...ROUND22_ANSWERS,
  ...ROUND22_INPUTS,
  ...ROUND22_DOCUMENTS,
  ...ROUND22_CHANNELS,
];

/** The twenty-second list (round 23): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND23: readonly UnseenViolation[] = [
  ...ROUND23_ANSWERS,
  ...ROUND23_INPUTS,
  ...ROUND23_DOCUMENTS,
  ...ROUND23_CHANNELS,
];

/** The twenty-third list (round 24): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND24: readonly UnseenViolation[] = [
  ...ROUND24_ANSWERS,
  ...ROUND24_INPUTS,
  ...ROUND24_DOCUMENTS,
  ...ROUND24_CHANNELS,
];

/** The twenty-fourth list (round 25): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND25: readonly UnseenViolation[] = [
  ...ROUND25_ANSWERS,
  ...ROUND25_INPUTS,
  ...ROUND25_DOCUMENTS,
  ...ROUND25_CHANNELS,
];

/** The twenty-fifth list (round 26): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND26: readonly UnseenViolation[] = [
  ...ROUND26_ANSWERS,
  ...ROUND26_INPUTS,
  ...ROUND26_DOCUMENTS,
  ...ROUND26_CHANNELS,
];

/** The twenty-sixth list (round 27): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND27: readonly UnseenViolation[] = [
  ...ROUND27_ANSWERS,
  ...ROUND27_INPUTS,
  ...ROUND27_DOCUMENTS,
  ...ROUND27_CHANNELS,
];

/** The twenty-seventh list (round 28): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND28: readonly UnseenViolation[] = [
  ...ROUND28_ANSWERS,
  ...ROUND28_INPUTS,
  ...ROUND28_DOCUMENTS,
  ...ROUND28_CHANNELS,
];

/** The twenty-eighth list (round 29): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND29: readonly UnseenViolation[] = [
  ...ROUND29_ANSWERS,
  ...ROUND29_INPUTS,
  ...ROUND29_DOCUMENTS,
  ...ROUND29_CHANNELS,
];

/** The twenty-ninth list (round 30): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND30: readonly UnseenViolation[] = [
  ...ROUND30_ANSWERS,
  ...ROUND30_INPUTS,
  ...ROUND30_DOCUMENTS,
  ...ROUND30_CHANNELS,
];

/** The thirtieth list (round 31): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND31: readonly UnseenViolation[] = [
  ...ROUND31_ANSWERS,
  ...ROUND31_INPUTS,
  ...ROUND31_DOCUMENTS,
  ...ROUND31_CHANNELS,
];

/** The thirty-first list (round 32): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND32: readonly UnseenViolation[] = [
  ...ROUND32_ANSWERS,
  ...ROUND32_INPUTS,
  ...ROUND32_DOCUMENTS,
  ...ROUND32_CHANNELS,
];

/** The thirty-second list (round 33): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND33: readonly UnseenViolation[] = [
  ...ROUND33_ANSWERS,
  ...ROUND33_INPUTS,
  ...ROUND33_DOCUMENTS,
  ...ROUND33_CHANNELS,
];

/** The thirty-third list (round 34): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND34: readonly UnseenViolation[] = [
  ...ROUND34_ANSWERS,
  ...ROUND34_INPUTS,
  ...ROUND34_DOCUMENTS,
  ...ROUND34_CHANNELS,
];

/** The thirty-fourth list (round 35): a fresh outsider again, who read none of the kit's checks; none of an earlier kind. */
export const UNSEEN_ROUND35: readonly UnseenViolation[] = [
  ...ROUND35_ANSWERS,
  ...ROUND35_INPUTS,
  ...ROUND35_DOCUMENTS,
  ...ROUND35_CHANNELS,
];

// Rounds 36 and later live in latest-rounds.ts (split off to keep this file short).
export {
  UNSEEN_ROUND36,
  UNSEEN_ROUND37,
  UNSEEN_ROUND38,
  UNSEEN_ROUND39,
  UNSEEN_ROUND40,
} from './latest-rounds.ts';
