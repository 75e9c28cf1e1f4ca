// The kit's OpenAPI 3.1 validation of a deployment's document (discovery.openapi-valid): one validator per
// process, and its verdicts kept by document text, bounded in count and characters.
import { Validator } from '@seriousme/openapi-schema-validator';
import { KIT_AJV_OPTIONS } from '../../rules/ajv-options.ts';

// One validator for every run in this process: compiling the OpenAPI 3.1 meta-schema costs more than
// a whole run's other checks (about half a second of CPU). It keeps per-call state, so calls take turns.
let openApiValidator: Validator | undefined;
let validatorTurn: Promise<unknown> = Promise.resolve();

type Validation = Awaited<ReturnType<Validator['validate']>>;

/**
 * Verdicts of documents validated before, by text: a run fetches the same document as the run before
 * it against the same deployment, and in-process targets differ only in their loopback port. The port
 * of a top-level server URL on 127.0.0.1 is left out of the key: the schema's uri-reference format
 * reads any port digits alike, so the verdict is the same.
 */
const validations = new Map<string, Promise<Validation>>();
const VALIDATIONS_KEPT = 8;
const VALIDATION_KEY_CHARS = 4 * 1024 * 1024;
const LOOPBACK_PORT = /^(https?:\/\/127\.0\.0\.1:)\d{1,5}(?=\/|$)/;

function validationKey(doc: object): string {
  const servers = (doc as { servers?: unknown }).servers;
  if (!Array.isArray(servers)) return JSON.stringify(doc);
  const same = servers.map((s) =>
    s && typeof s === 'object' && typeof (s as { url?: unknown }).url === 'string'
      ? { ...s, url: (s as { url: string }).url.replace(LOOPBACK_PORT, '$1<port>') }
      : s,
  );
  return JSON.stringify({ ...doc, servers: same });
}

/**
 * The document checked against the OpenAPI 3.1 schema (once per document text), a copy of the verdict.
 * @example const { valid, errors } = await validateOpenApi(await res.json());
 */
export function validateOpenApi(doc: object): Promise<Validation> {
  const key = validationKey(doc);
  let verdict = validations.get(key);
  if (!verdict) {
    verdict = validateOnce(doc);
    // Kept by count and by the characters of their keys (a deployment's document can be as large as
    // the kit reads); a document over a quarter of the budget is validated every time.
    if (key.length <= VALIDATION_KEY_CHARS / 4) {
      validations.set(key, verdict);
      verdict.catch(() => validations.delete(key));
      let chars = 0;
      for (const k of validations.keys()) chars += k.length;
      for (const old of validations.keys()) {
        if (validations.size <= VALIDATIONS_KEPT && chars <= VALIDATION_KEY_CHARS) break;
        validations.delete(old);
        chars -= old.length;
      }
    }
  }
  return verdict.then((result) =>
    Array.isArray(result.errors) ? { ...result, errors: [...result.errors] } : { ...result },
  );
}

/** The document checked against the OpenAPI 3.1 schema, errors copied out before the next turn. */
function validateOnce(doc: object): Promise<Validation> {
  const turn = validatorTurn.then(async () => {
    openApiValidator ??= new Validator({ ...KIT_AJV_OPTIONS });
    const result = await openApiValidator.validate(structuredClone(doc) as Record<string, unknown>);
    return Array.isArray(result.errors) ? { ...result, errors: [...result.errors] } : result;
  });
  validatorTurn = turn.catch(() => undefined);
  return turn;
}
