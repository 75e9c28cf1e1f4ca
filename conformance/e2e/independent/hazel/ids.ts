// Identifiers of hazel: UUIDv7 for every entity (time-ordered, like the Java uuid-creator library the
// service uses), ULIDs for request ids (req_<26 chars>), opaque 64-hex tokens and signing keys.
import { createHash, randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function uuidFromParts(ms: number, random: Buffer): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(ms, 0, 6);
  random.copy(bytes, 6, 0, 10);
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x70, 6); // version 7
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8); // RFC 9562 variant
  return formatUuid(bytes);
}

let lastMs = 0;
let counter = 0;

/** A fresh UUIDv7; ids made in the same millisecond still sort in creation order. */
export function uuidv7(): string {
  const now = Date.now();
  counter = now === lastMs ? counter + 1 : 0;
  lastMs = now;
  const random = randomBytes(10);
  random.writeUInt16BE((counter & 0x0fff) | (random.readUInt16BE(0) & 0xf000), 0);
  return uuidFromParts(now, random);
}

/** A stable UUIDv7 for catalog entries: same name, same id on every start (seeded from the name). */
export function catalogUuid(name: string): string {
  const seedMs = Date.UTC(2026, 0, 15, 9, 0, 0);
  const digest = createHash('sha256').update(`hazel-catalog:${name}`).digest();
  return uuidFromParts(seedMs + digest.readUInt16BE(12), digest.subarray(0, 10));
}

export function ulid(): string {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD.charAt(time % 32) + head;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD.charAt(random.readUInt8(i) % 32);
  return head + tail;
}

export function requestId(): string {
  return `req_${ulid()}`;
}

export function opaqueHex(): string {
  return randomBytes(32).toString('hex');
}

let offsetMinutes = 0;

/** HAZEL_ZONE_OFFSET_MINUTES: times written in a fixed offset (OffsetDateTime in the server's zone). */
export function setZoneOffset(minutes: number): void {
  offsetMinutes = minutes;
}

/** An instant as Java prints it: microseconds, `Z` (or the configured offset, e.g. `+01:00`). */
export function instantAt(ms: number, micros = 0): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const fraction = `${local}${String(micros).padStart(3, '0')}`;
  if (offsetMinutes === 0) return `${fraction}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${fraction}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The current instant (Instant.now() on Linux has microseconds). */
export function instant(): string {
  const t = performance.timeOrigin + performance.now();
  const ms = Math.floor(t);
  return instantAt(ms, Math.min(999, Math.floor((t - ms) * 1000)));
}
