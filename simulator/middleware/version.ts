import { type ApiVersion, isSupportedVersion, SUPPORTED_VERSIONS } from '../contract/versions.ts';
import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';

/**
 * The interface version a Service-Version header asks for: undefined when absent (the current one), the
 * trimmed value when published, else ApiError invalid_request listing the supported ones. Shared by the
 * version step and the routes answered in front of the pipeline (`POST /_sandbox/runs`).
 * @example askedVersion('2026-06-12') // '2026-06-12'
 */
export function askedVersion(header: string | undefined): ApiVersion | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (!isSupportedVersion(value)) {
    throw new ApiError('invalid_request', {
      detail: 'header Service-Version names an unknown interface version.',
      hint: `Supported versions: ${SUPPORTED_VERSIONS.join(', ')} (default ${SUPPORTED_VERSIONS[0]}).`,
    });
  }
  return value;
}

/**
 * Reads the Service-Version header: absent -> current version; a published one -> served as that
 * version (meta.version says which); anything else -> 400 invalid_request listing the supported ones.
 */
export function versionStep() {
  return defineStep({
    name: 'version',
    provides: ['version'],
    run(ctx, next) {
      const asked = askedVersion(ctx.req.headers['service-version']);
      if (asked !== undefined) ctx.version = asked;
      return next();
    },
  });
}
