/**
 * The diagnostic logger: weft's own messages go here, never as exceptions into user code.
 * Level from `WEFT_LOG_LEVEL` (`debug` | `info` | `warn` | `error` | `none`), default `warn`.
 * @module
 */
import { runtimeEnv } from './runtime.js';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, none: 100 } as const;
export type DiagLevel = keyof typeof LEVELS;

/** The numeric threshold of a level name; unknown names mean `warn`. */
function levelOf(name: string | undefined): number {
  return name !== undefined && Object.hasOwn(LEVELS, name) ? LEVELS[name as DiagLevel] : LEVELS.warn;
}

let threshold = levelOf(runtimeEnv().WEFT_LOG_LEVEL);
const onceKeys = new Set<string>();

/** Sets the diagnostic level (e.g. `'debug'` in tests that want to see everything). */
export function setDiagLevel(level: DiagLevel): void {
  threshold = levelOf(level);
}

function emit(level: DiagLevel, message: string): void {
  if (LEVELS[level] < threshold) return;
  try {
    console.error(`[weft] ${level}: ${message}`);
  } catch {
    // a broken stderr must not break the user's program
  }
}

/** weft's diagnostic logger. */
export const diag = {
  debug: (m: string) => emit('debug', m),
  info: (m: string) => emit('info', m),
  warn: (m: string) => emit('warn', m),
  error: (m: string) => emit('error', m),
  /** Logs `message` at `level` only the first time `key` is seen in this process. */
  once(key: string, level: DiagLevel, message: string): void {
    if (onceKeys.has(key)) return;
    onceKeys.add(key);
    emit(level, message);
  },
};
