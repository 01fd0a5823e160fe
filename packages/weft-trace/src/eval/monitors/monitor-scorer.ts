/**
 * A monitor's scorer from what is stored: a built-in that fits production calls (no expected answer: `json_valid`,
 * `llm_judge`), or a module exporting a scorer function as evaluate() takes one (its default export, else `scorer`).
 * @module
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Scorer } from '../scorer.js';
import { jsonValid } from '../scorers/json-scorers.js';
import { llmJudge } from '../scorers/llm-judge.js';
import { judgeClient } from './judge-client.js';

/** The built-in scorers a monitor can name. */
export const MONITOR_BUILTINS = ['json_valid', 'llm_judge'] as const;

/** The rubric of an `llm_judge` monitor given none. */
export const DEFAULT_RUBRIC = 'The output answers the input correctly, completely and helpfully.';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The LLM judge of a monitor: options `model` (required), `rubric`, `rpm`, `pass_threshold`. */
function judge(options: Record<string, unknown>): Scorer {
  const model = text(options['model']);
  if (!model) throw new TypeError('llm_judge: the model option is required (weft monitors add --model <name>)');
  const passThreshold = typeof options['pass_threshold'] === 'number' ? options['pass_threshold'] : undefined;
  const rpm = options['rpm'] === undefined ? undefined : Number(options['rpm']);
  return llmJudge({ client: judgeClient({ rpm }), model, rubric: text(options['rubric']) ?? DEFAULT_RUBRIC, passThreshold });
}

/**
 * Resolves a monitor's `scorer`: a built-in's name ({@link MONITOR_BUILTINS}), else an absolute path or `file:` URL
 * of an ES module (`.mjs` / `.js`) whose default export (or `scorer` export) is a scorer function.
 * @param spec - the stored `scorer`.
 * @param options - the stored options (the LLM judge's).
 * @throws {TypeError} for a module without a scorer function, or an `llm_judge` without a model or key; the module's
 *   own load error as is.
 */
export async function resolveScorer(spec: string, options: Record<string, unknown>): Promise<{ name: string; fn: Scorer }> {
  if (spec === 'json_valid') return { name: 'json_valid', fn: jsonValid() };
  if (spec === 'llm_judge') return { name: 'llm_judge', fn: judge(options) };
  const url = spec.startsWith('file:') ? spec : pathToFileURL(spec).href;
  const mod = (await import(url)) as { default?: unknown; scorer?: unknown };
  const fn = typeof mod.default === 'function' ? mod.default : mod.scorer;
  if (typeof fn !== 'function') throw new TypeError(`monitor scorer ${spec}: expected a module whose default export (or "scorer" export) is a function`);
  const name = (fn.name || basename(spec).replace(/\.[^.]*$/, '')).replace(/[/:\s]/g, '_');
  return { name, fn: fn as Scorer };
}
