/**
 * init() options and env vars resolved into Settings, validated with zod; misconfiguration is a clear ConfigError.
 * @module
 */
import { runtimeEnv } from './internal/runtime.js';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { defaultValue, INIT_OPTIONS, type InitOptionName } from './init-option-table.js';
import type { InitOptions } from './init-options.js';

type Shape = { [K in InitOptionName]: (typeof INIT_OPTIONS)[K]['schema'] };

/** Every option's check, from the option table. */
export const SettingsSchema = z.object(
  Object.fromEntries(Object.entries(INIT_OPTIONS).map(([name, o]) => [name, o.schema])) as Shape,
);

/** Fully resolved settings. */
export type Settings = z.output<typeof SettingsSchema>;

/**
 * Merges `options`, env vars and defaults (in that order, except an env var that overrides), and
 * validates the result.
 * @throws {ConfigError} naming each bad option, what was expected and what was received.
 */
export function resolveSettings(options: InitOptions = {}, env: NodeJS.ProcessEnv = runtimeEnv()): Settings {
  const raw: Record<string, unknown> = {};
  /** Options whose value came from their env var, by option name: the env var's name. */
  const envSet = new Map<string, string>();
  for (const [name, o] of Object.entries(INIT_OPTIONS)) {
    const given = options[name as InitOptionName];
    const fromEnv = o.env?.read(env[o.env.name]);
    const chosen = o.env?.overrides ? (fromEnv ?? given) : (given ?? fromEnv);
    if (o.env && chosen !== undefined && chosen === fromEnv) envSet.set(name, o.env.name);
    const fallback = defaultValue(o);
    raw[name] = chosen ?? (Array.isArray(fallback) ? [...(fallback as unknown[])] : fallback); // a default list is never shared
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const from = envSet.get(String(i.path[0]));
      return `  ${i.path.join('.')}: ${i.message}${from ? ` (from ${from})` : ''}`;
    });
    throw new ConfigError(`weft init(): invalid options\n${lines.join('\n')}`);
  }
  return parsed.data;
}
