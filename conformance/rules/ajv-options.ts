import { boundedRegExp } from './safe-regex.ts';

/**
 * Ajv options the kit compiles every schema with. A kit run compiles each schema once per process and
 * runs it a few times, so Ajv's code optimisation pass (which only drops redundant generated code, not
 * a check nor an error) costs more than it saves: without it the OpenAPI 3.1 meta-schema compiles in
 * about half the CPU. The schemas compiled are the contract's or a package's own, already valid, so
 * Ajv's check of each schema against its meta-schema (itself compiled first) is left out as well.
 * Patterns run through boundedRegExp: a deployment's document may hold one that backtracks without bound.
 * @example new Ajv2020({ ...KIT_AJV_OPTIONS, strict: false, allErrors: true })
 */
export const KIT_AJV_OPTIONS = { code: { optimize: false, regExp: boundedRegExp }, validateSchema: false } as const;
