// Plain-text table and number formatting for benchmark output (first column left-aligned, the rest right-aligned).

/** Prints `rows` under `headers` as an aligned text table. */
export function printTable(title: string, headers: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** A number with thousands separators and `digits` decimals (fewer significant digits for large values). */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  const d = Math.abs(value) >= 100 ? 0 : digits;
  return value.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

/** A ratio such as `0.42x`. */
export function ratio(value: number, base: number): string {
  if (!(base > 0) || !Number.isFinite(value)) return '';
  const r = value / base;
  return `${r >= 100 ? num(r) : r.toFixed(r >= 10 ? 1 : 2)}x`;
}

/** The target text followed by `met` or `NOT met`. */
export function verdict(met: boolean, target: string): string {
  return `${target} ${met ? 'met' : 'NOT met'}`;
}

/** Whether the quick mode is on (`BENCH_QUICK=1`): shorter sampling and smaller workloads. */
export const QUICK = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
