/**
 * Parses the time options of the CLI (`--since 2h`, `--since 2026-11-01`) into ISO 8601 UTC instants.
 * @module
 */
import { InvalidArgumentError } from 'commander';
import { DateTime, Duration } from 'luxon';

const UNITS: Record<string, string> = { s: 'seconds', m: 'minutes', h: 'hours', d: 'days', w: 'weeks' };

/**
 * An instant as ISO 8601 UTC: a duration back from `now` (`90s`, `15m`, `2h`, `7d`, `1w`) or an ISO 8601
 * date/time (a time without offset is local time, `TZ`).
 * @throws InvalidArgumentError (commander's usage error) for anything else.
 */
export function parseInstant(value: string, now: number = Date.now()): string {
  const ago = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(value.trim());
  if (ago) {
    const unit = UNITS[ago[2]!]!;
    return new Date(now - Duration.fromObject({ [unit]: Number(ago[1]) }).toMillis()).toISOString();
  }
  const t = DateTime.fromISO(value.trim());
  if (!t.isValid) throw new InvalidArgumentError(`expected a duration such as 15m, 2h, 7d or an ISO 8601 time such as 2026-11-01T09:00, got ${JSON.stringify(value)}`);
  return t.toUTC().toISO()!;
}

/** A positive integer option (`--limit`). */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) throw new InvalidArgumentError(`expected a whole number >= 1, got ${JSON.stringify(value)}`);
  return n;
}
