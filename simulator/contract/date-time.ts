import { z } from 'zod';

/**
 * A date-time of the interface ("string, date-time"): RFC 3339, so any UTC offset is legal
 * (`…Z` as the simulator writes it, or `…+02:00` as another deployment may). Kit expectations
 * derive from the contract, so a stricter schema here would fail other deployments' legal answers.
 *
 * @example DateTime.parse('2026-07-01T12:00:00.000+02:00');
 */
export const DateTime = z.iso.datetime({ offset: true });
