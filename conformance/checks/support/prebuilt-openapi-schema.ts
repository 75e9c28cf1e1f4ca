// The OpenAPI 3.1 schema of @seriousme/openapi-schema-validator as a validating function compiled
// when the package is built (`npm run build` replaces this module in dist/ and in the CLI bundle; see
// simulator/package/prebuilt.ts). Compiling the schema with Ajv costs ~150-250 ms of CPU in every
// process that runs the kit (each `ncs conformance run`). From source there is none, and the
// validator compiles the schema on first use, as it always did.
import type { ValidateFunction } from 'ajv';

export const PREBUILT_OPENAPI_31_SCHEMA: ValidateFunction | undefined = undefined;
