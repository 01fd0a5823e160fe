// One line describing where a benchmark ran: date, Node version, CPUs, load, and which weft code was measured.
import { availableParallelism, loadavg } from 'node:os';
import { CODE_UNDER_TEST } from './weft.js';

/** e.g. `2026-11-21T06:30:00Z · Node v20.20.2 · 2 CPUs · load 3.10 · weft: tsup build in ...`. */
export function contextLine(): string {
  const load = loadavg()[0] ?? 0;
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return `${when} · Node ${process.version} · ${availableParallelism()} CPUs · load ${load.toFixed(2)} · weft: ${CODE_UNDER_TEST}`;
}
