/**
 * Call and trace ids: a fast UUIDv7 generator (RFC 9562 §5.7) with a 42-bit monotonic counter per millisecond.
 * @module
 */
import { getRandomValues } from 'node:crypto';

/**
 * Layout (RFC 9562 §6.2, method 1, "fixed bit-length dedicated counter"): 48-bit Unix ms | `7` |
 * 12 counter bits | variant `10` | 30 counter bits | 32 random bits. The counter starts at a random
 * value below 2^41 each millisecond and adds 1 per id, so ids made in one process sort in the order they
 * were made; when it runs out (2^41 ids in one ms) or the clock steps back, the timestamp moves on from
 * the last one used instead. Random bits come from `crypto.getRandomValues`, drawn 1,024 words at a time.
 */
const POOL_WORDS = 1024;
const pool = new Uint32Array(POOL_WORDS);
let poolAt = POOL_WORDS;

/** 2^30: the counter's low part (30 bits) spans this many values. */
const LOW = 0x4000_0000;
/** The counter's largest value, 2^42 - 1. */
const COUNTER_MAX = 2 ** 42 - 1;

/** Two lowercase hex digits for each byte value. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

let lastMs = -1;
let counter = 0;
/** `xxxxxxxx-xxxx-7` for {@link lastMs}: the 48-bit timestamp in hex, dashed, and the version digit. */
let prefix = '';

function random32(): number {
  if (poolAt === POOL_WORDS) {
    getRandomValues(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** Starts a millisecond: a new timestamp prefix and a random counter below 2^41 (so it has room to count up). */
function startMs(ms: number): void {
  lastMs = ms;
  counter = (random32() & 0x7ff) * LOW + (random32() & (LOW - 1));
  const hi = Math.floor(ms / 0x1_0000_0000); // top 16 bits of 48
  const lo = ms >>> 0; // low 32 bits
  prefix = `${HEX[lo >>> 24]}${HEX[(lo >>> 16) & 0xff]}${HEX[(lo >>> 8) & 0xff]}${HEX[lo & 0xff]}`;
  prefix = `${HEX[hi >>> 8]}${HEX[hi & 0xff]}${prefix.slice(0, 4)}-${prefix.slice(4)}-7`;
}

/**
 * A new UUIDv7 string (lowercase, dashed), e.g. `019a4f2e-7c3b-7d21-9a4b-3c2d1e0f9a8b`. Ids made in this
 * process are unique and strictly increasing (as strings too); their timestamp is the current Unix time
 * in ms, or just past the previous id's when the clock went back or a millisecond's counter ran out.
 */
export function newId(): string {
  const now = Date.now();
  if (now > lastMs) startMs(now);
  else if (counter < COUNTER_MAX) counter++;
  else startMs(lastMs + 1);
  const high = Math.floor(counter / LOW); // 12 bits: rand_a
  const low = counter % LOW; // 30 bits: top of rand_b
  const variant = 0x8000 | (low >>> 16); // `10` + 14 counter bits
  const tail = random32();
  return `${prefix}${(high >>> 8).toString(16)}${HEX[high & 0xff]}-${HEX[variant >>> 8]}${HEX[variant & 0xff]}-${HEX[(low >>> 8) & 0xff]}${HEX[low & 0xff]}${HEX[tail >>> 24]}${HEX[(tail >>> 16) & 0xff]}${HEX[(tail >>> 8) & 0xff]}${HEX[tail & 0xff]}`;
}
