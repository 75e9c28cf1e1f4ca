import { expect } from 'vitest';
import { FailureEnvelope, successEnvelope } from '../../contract/envelope.ts';
import { ERROR_TABLE, type ErrorCode } from '../../contract/errors.ts';
import { z as zod, type z } from 'zod';
import type { CallResult } from '../harness.ts';

/** Asserts a success envelope (optionally its data against a schema) and returns data. */
export function expectSuccess<T extends z.ZodType = z.ZodAny>(res: CallResult, data?: T): z.infer<T> {
  expect(res.status, res.text).toBe(200);
  const parsed = successEnvelope(data ?? zod.unknown()).safeParse(res.json);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  expect(res.json.ok).toBe(true);
  expect(res.headers.get('x-request-id')).toBe(res.json.meta.requestId);
  expect(res.json.meta.version).toBe('2026-07-01');
  return res.json.data;
}

/** Asserts the failure envelope with `code` and its paired status, a requestId, a hint, no internals. */
export function expectFailure(res: CallResult, code: ErrorCode) {
  expect(res.status, res.text).toBe(ERROR_TABLE[code].status);
  const parsed = FailureEnvelope.safeParse(res.json);
  expect(parsed.success, res.text).toBe(true);
  expect(res.json.error.code).toBe(code);
  expect(res.json.error.hint).toBeTruthy();
  expect(res.headers.get('x-request-id')).toBe(res.json.meta.requestId);
  expect(res.text).not.toMatch(/at .+\.ts:\d+|node_modules|\/work\/|Error:/);
  return res.json.error as { code: string; message: string; detail?: string; hint: string };
}
