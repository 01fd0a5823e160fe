/**
 * Dataset rows to and from files: JSONL (one JSON object a line) and CSV (a header row; nested values as JSON text, numbers and JSON objects read back).
 * @module
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CliError } from './exit.js';

/** A file format of `weft datasets export/import`. */
export type RowFormat = 'jsonl' | 'csv';

/** The format named by `--format`, else by the file's extension (`.csv`), else JSONL. */
export function formatOf(explicit: string | undefined, file: string | undefined): RowFormat {
  const f = explicit ?? (file?.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
  if (f !== 'jsonl' && f !== 'csv') throw new CliError(`--format: expected jsonl or csv, got "${f}"`, 2);
  return f;
}

/** Rows as text in `format`. CSV columns: every key of every row, in first-seen order. */
export function writeRows(rows: readonly Record<string, unknown>[], format: RowFormat): string {
  if (format === 'jsonl') return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  return stringify(rows.map((r) => columns.map((k) => cell(r[k]))), { header: true, columns });
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A CSV cell read back: numbers, `true`/`false`, JSON objects and arrays as values; anything else a string. */
function readCell(text: string): unknown {
  if (NUMBER.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Rows read from `text` in `format`.
 * @throws {CliError} naming the line when a JSONL line is not a JSON object, or the CSV is malformed.
 */
export function readRows(text: string, format: RowFormat, file: string): Record<string, unknown>[] {
  if (format === 'csv') {
    try {
      const records = parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
      return records.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '').map(([k, v]) => [k, readCell(v)])));
    } catch (e) {
      throw new CliError(`${file}: not valid CSV: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const rows: Record<string, unknown>[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      v = undefined;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new CliError(`${file}:${i + 1}: expected a JSON object per line`);
    rows.push(v as Record<string, unknown>);
  });
  return rows;
}
