// The option table is the one source: InitOptions and the options table of docs/tracing.md are what `npm run docs:options` makes of it, and its types and minimums are what resolveSettings checks.
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { INIT_OPTIONS_FILE, OPTIONS_DOC_FILE, renderInitOptions, spliceOptionsDoc } from '../../../scripts/docs-options.js';
import { INIT_OPTIONS } from '../src/init-option-table.js';
import type { InitOptions } from '../src/init-options.js';
import { resolveSettings, type Settings, SettingsSchema } from '../src/settings.js';
import type { BatcherOptions, ExportOptions } from '../src/export/export-options.js';
import { ConfigError } from '../src/errors.js';

const FIX = 'run `npm run docs:options` after changing src/init-option-table.ts';

it('src/init-options.ts is what the option table generates', () => {
  expect(readFileSync(INIT_OPTIONS_FILE, 'utf8'), FIX).toBe(renderInitOptions());
});

it("docs/tracing.md's options table is what the option table generates", () => {
  const doc = readFileSync(OPTIONS_DOC_FILE, 'utf8');
  expect(doc, FIX).toBe(spliceOptionsDoc(doc));
});

it('InitOptions declares each option with the type its check accepts, and the exporter options are slices of the settings', () => {
  type Loose<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
  expectTypeOf<Loose<InitOptions>>().toEqualTypeOf<Loose<z.input<typeof SettingsSchema>>>();
  expectTypeOf<Settings>().toExtend<BatcherOptions>();
  expectTypeOf<Settings>().toExtend<ExportOptions>();
});

describe('each numeric option', () => {
  const project = 'a/b';
  for (const [name, o] of Object.entries(INIT_OPTIONS)) {
    if (o.min === undefined) continue;
    it(`${name}: accepts its minimum and its default, refuses less, naming the option`, () => {
      expect(resolveSettings({ project, [name]: o.min }, {})[name as keyof Settings]).toBe(o.min);
      expect(resolveSettings({ project }, {})[name as keyof Settings]).toBe(o.default);
      expect(() => resolveSettings({ project, [name]: o.min! - 1 }, {})).toThrowError(ConfigError);
      expect(() => resolveSettings({ project, [name]: o.min! - 1 }, {})).toThrowError(new RegExp(`\\n  ${name}: `));
      if (o.max !== undefined) expect(() => resolveSettings({ project, [name]: o.max! + 1 }, {})).toThrowError(new RegExp(`\\n  ${name}: `));
    });
  }
});
