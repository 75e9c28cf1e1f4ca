// The OpenAPI documents of every supported version, as JSON text, generated from the zod contract
// when the package is built (`npm run build` replaces this module in dist/ and in the CLI bundle;
// see simulator/package/prebuilt.ts). Generating them takes ~30 ms of each `ncs serve` start. From
// source there are none, and the documents are generated on first use.
export const PREBUILT_DOCUMENTS: Readonly<Record<string, string>> | undefined = undefined;
