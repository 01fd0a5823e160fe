/**
 * Call and trace ids: a fast UUIDv7 generator (RFC 9562 §5.7) with a 42-bit monotonic counter per millisecond.
 * @module
 */

/**
 * Layout (RFC 9562 §6.2, method 1, "fixed bit-length dedicated counter"): 48-bit Unix ms | `7` |
 * 12 counter bits | variant `10` | 30 counter bits | 32 random bits. The 42-bit counter is kept as a
 * 26-bit high part and a 16-bit low part; it starts at a random value below 2^41 each millisecond and
 * adds 1 per id, so ids made in one process sort in the order they were made; when it runs out (2^41
 * ids in one ms) or the clock steps back, the timestamp moves on from the last one used instead. Random
 * bits come from `crypto.getRandomValues`, drawn 1,024 words at a time. Everything before the low part
 * is formatted once per millisecond (or per 65,536 ids), so an id costs a few string joins.
 */
const POOL_WORDS = 1024;
const pool = new Uint32Array(POOL_WORDS);
let poolAt = POOL_WORDS;

/** The high part of the counter spans 26 bits. */
const HIGH_LIMIT = 0x400_0000;

/** Two lowercase hex digits for each byte value. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

let lastMs = -1;
let high = 0;
let low = 0;
/** `xxxxxxxx-xxxx-7` for {@link lastMs}: the 48-bit timestamp in hex, dashed, and the version digit. */
let msPrefix = '';
/** {@link msPrefix}, the counter's top 12 bits, `-`, variant and the next 14 bits, `-`: everything before the low part. */
let head = '';

function random32(): number {
  if (poolAt === POOL_WORDS) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** Starts millisecond `ms`: its prefix, and a random counter below 2^41 (so it has room to count up). */
function startMs(ms: number): void {
  lastMs = ms;
  const hi = Math.floor(ms / 0x1_0000_0000); // top 16 bits of 48
  const lo = ms >>> 0; // low 32 bits
  msPrefix = `${HEX[hi >>> 8]}${HEX[hi & 0xff]}${HEX[lo >>> 24]}${HEX[(lo >>> 16) & 0xff]}-${HEX[(lo >>> 8) & 0xff]}${HEX[lo & 0xff]}-7`;
  high = random32() & (HIGH_LIMIT / 2 - 1); // 25 random bits: the counter starts below 2^41
  low = random32() & 0xffff;
  startHigh();
}

/** Formats {@link head} for the current high part of the counter. */
function startHigh(): void {
  const variant = 0x8000 | (high & 0x3fff); // `10` + the high part's low 14 bits
  const top = high >>> 14; // the high part's top 12 bits
  head = `${msPrefix}${(top >>> 8).toString(16)}${HEX[top & 0xff]}-${HEX[variant >>> 8]}${HEX[variant & 0xff]}-`;
}

/** Adds 1 to the counter; past its end, moves on to the next millisecond. */
function count(): void {
  if (low < 0xffff) {
    low++;
    return;
  }
  low = 0;
  if (high + 1 < HIGH_LIMIT) {
    high++;
    startHigh();
  } else {
    startMs(lastMs + 1);
  }
}

/**
 * A new UUIDv7 string (lowercase, dashed), e.g. `019a4f2e-7c3b-7d21-9a4b-3c2d1e0f9a8b`. Ids made in this
 * process are unique and strictly increasing (as strings too); their timestamp is `nowMs` (the current
 * Unix time in ms by default), or just past the previous id's when the clock went back or a
 * millisecond's counter ran out.
 */
export function newId(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) startMs(nowMs);
  else count();
  const r = random32();
  // Short pieces (under 13 characters) are joined into one flat string, then added to the head once.
  const tail = `${HEX[low >>> 8]}${HEX[low & 0xff]}${HEX[r >>> 24]}${HEX[(r >>> 16) & 0xff]}${HEX[(r >>> 8) & 0xff]}${HEX[r & 0xff]}`;
  return head + tail;
}
