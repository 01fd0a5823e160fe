/**
 * Times as the viewer shows them: ISO-like local time with milliseconds, the IANA zone named (no imports: the tests
 * load it without a browser).
 * @module
 */

/** The browser's IANA time zone (`UTC` when it names none). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The date and time fields of `zone`, in a fixed locale (24-hour clock, two-digit fields), one formatter per zone. */
function fieldsIn(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formats.set(zone, f);
  }
  return f;
}

/**
 * An instant as ISO-like local time with milliseconds, without the zone: `2026-11-25 21:16:00.925` (a list names the
 * zone once, in its header).
 * @param iso - an ISO 8601 timestamp.
 * @param zone - the IANA time zone to show it in; default the browser's.
 */
export function clock(iso: string, zone = localZone()): string {
  const d = new Date(iso);
  const p: Record<string, string> = {};
  for (const part of fieldsIn(zone).formatToParts(d)) p[part.type] = part.value;
  return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}:${p['second']}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
}

/**
 * An instant as ISO-like local time with milliseconds, the zone named: `2026-11-25 21:16:00.925 Europe/Berlin`.
 * @param iso - an ISO 8601 timestamp.
 * @param zone - the IANA time zone to show it in; default the browser's.
 */
export function time(iso: string, zone = localZone()): string {
  return `${clock(iso, zone)} ${zone}`;
}
