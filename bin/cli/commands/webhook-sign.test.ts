import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import { readBody } from './webhook-input.ts';
import { webhookSign } from './webhook-signing.ts';

const SECRET = 'whsec_cli_unit';
const body = Buffer.from('{"id":"evt_1"}\r\n', 'utf8');
const T = 1_767_225_600;
const header = signWebhook(body, SECRET, T);
const noEnv = {};

describe('ncs webhook sign', () => {
  it('reads a body byte for byte', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ncs-wh-')), 'b.bin');
    writeFileSync(file, body);
    expect(readBody(file).equals(body)).toBe(true);
    expect(() => readBody(`${file}.missing`)).toThrow(/cannot read the body from .*missing/);
  });

  it('signs with a flag or environment secret, at a given or the current time', () => {
    expect(webhookSign({ secret: SECRET, timestamp: String(T) }, body, noEnv)).toBe(header);
    expect(webhookSign({ timestamp: String(T) }, body, { NCS_WEBHOOK_SECRET: SECRET })).toBe(header);
    expect(webhookSign({ secret: SECRET }, body, noEnv, (T + 0.9) * 1000)).toBe(header);
    expect(() => webhookSign({}, body, noEnv)).toThrow(/--secret or the environment variable NCS_WEBHOOK_SECRET/);
    expect(() => webhookSign({ secret: SECRET, timestamp: '-5' }, body, noEnv)).toThrow(
      /--timestamp must be unix seconds/,
    );
  });
});
