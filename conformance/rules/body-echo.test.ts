import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { bodyEchoProblem } from './body-echo.ts';

const SENT = { connectorId: 'tillwise-pos', capability: 'orders.read', environment: 'staging' };
const answer = (error: Record<string, string>, requestBody: string | null = JSON.stringify(SENT), status = 400) =>
  ({
    method: 'POST',
    url: 'http://127.0.0.1/api/public/v1/capabilities',
    requestHeaders: {},
    ...(requestBody === null ? {} : { requestBody }),
    status,
    headers: {},
    text: '',
    json: { ok: false, error: { code: 'invalid_request', message: 'invalid', ...error }, meta: {} },
    durationMs: 1,
    attempts: 1,
  }) as Exchange;

describe('an error sending the refused body back', () => {
  it('is found verbatim, re-serialised, or as every value of the body', () => {
    expect(bodyEchoProblem(answer({ detail: `rejected payload: ${JSON.stringify(SENT)}` }))).toMatch(
      /repeats the request body/,
    );
    const spaced = JSON.stringify(SENT, null, 2);
    expect(bodyEchoProblem(answer({ detail: `got ${JSON.stringify(SENT)}` }, spaced))).toMatch(
      /repeats the request body/,
    );
    expect(
      bodyEchoProblem(answer({ detail: 'input: connectorId=tillwise-pos capability=orders.read environment=staging' })),
    ).toMatch(/every value of the request body \(3\)/);
  });

  it('is not a message naming the field it refused, even with its value', () => {
    expect(
      bodyEchoProblem(
        answer({ detail: 'environment "staging" is not one of development, sandbox, pilot, production' }),
      ),
    ).toBeUndefined();
    expect(
      bodyEchoProblem(answer({ message: 'connector tillwise-pos has no capability orders.read' })),
    ).toBeUndefined();
  });

  it('judges only errors answering a JSON body of two fields or more', () => {
    const echoed = { detail: JSON.stringify(SENT) };
    expect(bodyEchoProblem(answer(echoed, JSON.stringify(SENT), 200))).toBeUndefined();
    expect(bodyEchoProblem(answer(echoed, null))).toBeUndefined();
    expect(bodyEchoProblem(answer({ detail: '{"operation":"x"} refused' }, '{"operation":"x"}'))).toBeUndefined();
    expect(bodyEchoProblem(answer({ detail: 'not json: a=b' }, 'a=b'))).toBeUndefined();
  });
});
