import { z } from 'zod';

/**
 * zod's RFC 3339 date-time pattern with any offset (calendar-checked: no February 30), as JSON Schema
 * writes it: the pattern of the published document and of every kit expectation.
 */
const UPPER_CASE_PATTERN = (z.toJSONSchema(z.iso.datetime({ offset: true })) as { pattern: string }).pattern;

/**
 * The same pattern with the letters in either case: RFC 3339 5.6 ("the "T" and "Z" characters in this
 * syntax may alternatively be lower case "t" or "z""), written as classes because JSON Schema patterns
 * carry no flags. A deployment writing `2026-07-01t10:00:00.123456z` (any number of fraction digits)
 * answers a date-time.
 */
const EITHER_CASE_PATTERN = UPPER_CASE_PATTERN.replace(')T(?:', ')[Tt](?:').replace('(?:Z|(', '(?:[Zz]|(');

/**
 * The RFC 3339 date-time production as a pattern (`T` or `t`, `Z` or `z`, or a `+hh:mm` offset), for a JSON
 * Schema validator's `date-time` format: ajv-formats' own also takes a space for the `T` and `+00` or `+0000` for
 * the offset (text a database writes), which RFC 3339's grammar does not.
 */
export const DATE_TIME_PATTERN: string = EITHER_CASE_PATTERN;

/**
 * A date-time of the interface ("string, date-time"): RFC 3339, so any UTC offset is legal
 * (`…Z` as the simulator writes it, or `…+02:00` as another deployment may), any fraction of a second,
 * and `t`/`z` in lower case. Kit expectations derive from the contract, so a stricter schema here would
 * fail other deployments' legal answers.
 *
 * @example DateTime.parse('2026-07-01T12:00:00.000+02:00');
 */
// `format` again as metadata: the OpenAPI generator (zod-to-openapi) writes no format of a custom string
// format, and the published document is to say "date-time" as the interface does.
export const DateTime = z.stringFormat('date-time', new RegExp(EITHER_CASE_PATTERN)).meta({ format: 'date-time' });
