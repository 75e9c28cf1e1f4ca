/** Interface versions the simulator serves; the first is the current one (Versioning section). */
export const SUPPORTED_VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export type ApiVersion = (typeof SUPPORTED_VERSIONS)[number];
export const CURRENT_VERSION: ApiVersion = SUPPORTED_VERSIONS[0];
export const BASE_PATH = '/api/public/v1';

export function isSupportedVersion(value: string): value is ApiVersion {
  return (SUPPORTED_VERSIONS as readonly string[]).includes(value);
}
