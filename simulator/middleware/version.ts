import { SUPPORTED_VERSIONS, isSupportedVersion } from '../contract/versions.ts';
import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';

/**
 * Reads the Service-Version header: absent -> current version; a published one -> served as that
 * version (meta.version says which); anything else -> 400 invalid_request listing the supported ones.
 */
export function versionStep() {
  return defineStep({
    name: 'version',
    provides: ['version'],
    run(ctx, next) {
      const asked = ctx.req.headers['service-version'];
      if (asked !== undefined) {
        const value = asked.trim();
        if (!isSupportedVersion(value)) {
          throw new ApiError('invalid_request', {
            detail: 'header Service-Version names an unknown interface version.',
            hint: `Supported versions: ${SUPPORTED_VERSIONS.join(', ')} (default ${SUPPORTED_VERSIONS[0]}).`,
          });
        }
        ctx.version = value;
      }
      return next();
    },
  });
}
