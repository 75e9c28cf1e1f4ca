import type { ErrorObject } from 'ajv';
import type { Operation } from 'openapi-backend';

/** A compiled request validator of openapi-backend (Ajv): mutates `data` when coercing, sets `errors`. */
type Validator = ((data: unknown) => unknown) & { errors?: ErrorObject[] | null };

export interface FastValidation {
  /** The Ajv errors of a request (empty when valid), exactly as validateRequest would collect them. */
  validate(
    params: Record<string, string>,
    req: { headers: Record<string, string>; query: Record<string, string | string[]>; body: unknown },
  ): ErrorObject[];
}

interface Param {
  in: string;
  name: string;
  explode?: boolean;
  content?: unknown;
  schema?: { type?: unknown };
}

/**
 * openapi-backend's validateRequest re-parses the path, clones the query with lodash and parses
 * cookies on every call before it runs the operation's compiled validators. For operations without
 * cookie parameters, JSON-content query parameters or non-exploded arrays, this builds the very same
 * input object directly and runs the same validators in the same order (body first, then parameters);
 * other operations return undefined and keep the general path.
 * @example const fast = fastValidationFor(operation, api.validator.getRequestValidatorsForOperation(id));
 */
export function fastValidationFor(operation: Operation, validators: Validator[]): FastValidation | undefined {
  const params = (operation.parameters ?? []) as Param[];
  if (params.some((p) => p.in === 'cookie' || (p.in === 'query' && (p.content !== undefined || p.explode === false))))
    return undefined;
  const arrayQuery = new Set(params.filter((p) => p.in === 'query' && p.schema?.type === 'array').map((p) => p.name));
  return {
    validate(path, req) {
      // No prototype (as the adapters' query): `__proto__` stays an unknown parameter Ajv reports.
      const query: Record<string, unknown> = Object.create(null);
      // for-in, not Object.entries: no array per member on every validated request.
      for (const k in req.query) {
        const v = req.query[k];
        if (v !== undefined) query[k] = typeof v === 'string' ? (arrayQuery.has(k) ? [v] : v) : [...v];
      }
      const header: Record<string, string> = {};
      for (const k in req.headers) {
        const v = req.headers[k];
        if (v !== undefined) header[k.toLowerCase()] = v;
      }
      const input: Record<string, unknown> = { path: { ...path }, query, header, cookie: {} };
      // No split (an array) for the many requests without a Content-Type.
      const type = header['content-type'];
      const contentType = type === undefined ? '' : type.split(';', 1)[0]?.trim().toLowerCase();
      // The body is the value the JSON reader parsed (a string body is the JSON string "x", never text
      // to parse again: openapi-backend would, and quote its parser's error to the client).
      if (req.body !== undefined || contentType === 'application/json') input.requestBody = req.body;
      const errors: ErrorObject[] = [];
      for (const validate of validators) {
        validate(input);
        // One by one, not push(...errors): a 1 MiB array of bad items makes 200,000 errors, past the
        // number of arguments a call can take (a RangeError, answered 500).
        if (validate.errors) for (const e of validate.errors) errors.push(e);
      }
      return errors;
    },
  };
}
