import { createHmac, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 20 receivers. "The signature is an HMAC with SHA-256, keyed with the signing key, over the text
 * <t>, a dot, and the unchanged raw request body, written as lowercase hex. The receiver compares in
 * constant time and rejects the delivery when the difference between t and the current time exceeds 300
 * seconds." A Go net/http handler, a Spring Boot filter, a Fastify route with a buffer parser, a Sinatra
 * route reading the body twice, a Bun Elysia handler timing with performance.now().
 */
const mac = (key: string, t: string, raw: Buffer | string) =>
  createHmac('sha256', key).update(`${t}.`).update(raw).digest();
const pairs = (h: string | undefined) =>
  Object.fromEntries(
    (h ?? '').split(',').map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()];
    }),
  ) as Record<string, string | undefined>;
const numeric = (t: string) => /^\d+$/.test(t);
const within = (t: string, nowS: number) => numeric(t) && Math.abs(nowS - Number(t)) <= 300;
const hexBytes = (v: string) =>
  /^[0-9a-fA-F]+$/.test(v) && v.length % 2 === 0 ? Buffer.from(v, 'hex') : Buffer.alloc(0);
/** hmac.Equal / MessageDigest.isEqual: false on other lengths, constant time else. */
const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

export const RECEIVERS_20: ReceiverKind[] = [
  // Go: io.ReadAll(r.Body), hex.DecodeString(v1), hmac.Equal, time.Since(time.Unix(t, 0)).Abs() <= 5*time.Minute.
  {
    does: 'is a Go net/http handler reading io.ReadAll(r.Body), comparing with hmac.Equal, |time.Since(t)| <= 5 min',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t, Date.now() / 1000) && equal(hexBytes(v1), mac(secret, t, raw));
    },
  },
  // Spring Boot: a OncePerRequestFilter wrapping the request in ContentCachingRequestWrapper, reading the cached
  // bytes, MessageDigest.isEqual over the hex text, Duration.between(t, Instant.now()).abs() within 5 minutes.
  {
    does: 'is a Spring Boot filter on ContentCachingRequestWrapper bytes, MessageDigest.isEqual over the hex, |Duration.between(t, now)| <= 5 min',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const expected = Buffer.from(mac(secret, t, Buffer.from(raw)).toString('hex'), 'ascii');
      return within(t, Math.floor(Date.now() / 1000)) && equal(Buffer.from(v1, 'ascii'), expected);
    },
  },
  // Fastify: addContentTypeParser('application/json', { parseAs: 'buffer' }) keeps the raw bytes, a length
  // check before crypto.timingSafeEqual.
  {
    does: 'is a Fastify route with a parseAs: "buffer" content-type parser, length check then timingSafeEqual, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      const expected = Buffer.from(mac(secret, t, raw).toString('hex'));
      const given = Buffer.from(v1);
      return within(t, Date.now() / 1000) && given.length === expected.length && timingSafeEqual(given, expected);
    },
  },
  // Sinatra: a before filter parses JSON with request.body.read, and the route reads request.body again
  // without request.body.rewind: it signs "<t>." and nothing, so no genuine delivery passes.
  {
    does: 'is a Sinatra route reading request.body a second time without rewind (an empty string) before verifying',
    passes: false,
    verify: (_raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t, Date.now() / 1000) && equal(hexBytes(v1), mac(secret, t, ''));
    },
  },
  // Bun Elysia: the window is checked against performance.now() / 1000 (seconds since the process started,
  // not since 1970): every genuine delivery reads as 56 years old.
  {
    does: 'is a Bun Elysia handler checking the window against performance.now() / 1000 instead of Date.now()',
    passes: false,
    verify: (raw, h, secret) => {
      const { t = '', v1 = '' } = pairs(h);
      return within(t, performance.now() / 1000) && equal(hexBytes(v1), mac(secret, t, raw));
    },
  },
];
