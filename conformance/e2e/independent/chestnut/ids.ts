// Identifiers and times the Kubernetes way: UUIDv7 ids (time-ordered, RFC 9562), an opaque monotonically
// increasing resourceVersion on every stored record, and RFC 3339 times at second precision (metav1.Time).
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let seq = 0;

/** A UUIDv7: 48 bits of Unix milliseconds, version 7, a 12-bit counter so ids of one millisecond still sort. */
export function uuidv7(): string {
  const now = Date.now();
  if (now === lastMs) seq = (seq + 1) & 0xfff;
  else {
    lastMs = now;
    seq = randomBytes(2).readUInt16BE(0) & 0x3ff;
  }
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | (seq >> 8);
  b[7] = seq & 0xff;
  b[8] = 0x80 | ((b[8] ?? 0) & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One counter for the whole store, like etcd's revision: every write takes the next value. */
export class Revisions {
  private current = 0;
  next(): string {
    this.current += 1;
    return String(this.current);
  }
}

/** RFC 3339 at second precision in UTC, as Kubernetes serialises metav1.Time. */
export function rfc3339(ms: number = Date.now()): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Opaque continue tokens: the offset and the list's revision, base64url, so a client cannot forge meaning into them. */
export function encodeContinue(offset: number, rv: string): string {
  return Buffer.from(JSON.stringify({ o: offset, rv })).toString('base64url');
}

export function decodeContinue(token: string): number | undefined {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown };
    return typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0 ? v.o : undefined;
  } catch {
    return undefined;
  }
}
