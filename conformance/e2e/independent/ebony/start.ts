// Starts ebony by hand and prints its handle as JSON: npx node conformance/e2e/independent/ebony/start.ts
// Options as JSON in EBONY_OPTIONS, e.g. EBONY_OPTIONS='{"rateLimit":200,"windowMs":5000}'.
import { type EbonyOptions, startEbony } from './server.ts';

const options = JSON.parse(process.env.EBONY_OPTIONS ?? '{}') as EbonyOptions;
const ebony = await startEbony(options);
const { close, ...handle } = ebony;
console.log(JSON.stringify(handle, null, 2));
const stop = () => {
  void close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
