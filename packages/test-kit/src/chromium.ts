/**
 * Test helper: which Chromium the viewer's browser tests drive. `WEFT_CHROMIUM` when set, else Debian's
 * `/usr/bin/chromium` when installed, else the headless shell shipped in the devDependency `@sparticuz/chromium`
 * (brotli-packed in the package, unpacked once to `<tmpdir>/chromium` by its `executablePath()`), so the suite
 * needs no system package. Resolved once per run in the global setup, which sets `WEFT_CHROMIUM` for the workers
 * (unpacking in several workers at once would race on the one file).
 * @module
 */
import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Flags that keep Chromium from reaching the network on its own (updates, sync, field trials). */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Environment variable holding the Chromium binary the browser tests launch. */
export const CHROMIUM_ENV = 'WEFT_CHROMIUM';
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium binary to launch; unpacks `@sparticuz/chromium`'s when neither the variable nor Debian's names one. */
export async function resolveChromium(): Promise<string> {
  const given = process.env[CHROMIUM_ENV];
  if (given) return given;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

/**
 * Options for playwright-core's `chromium.launch()`: the binary above, headless, no network of its own, and a
 * `LANG` that names a real locale (under `C.UTF-8` the packaged headless shell reports `en-US@posix`, which `Intl`
 * rejects as a language tag, so the page's date formatting threw).
 */
export async function chromiumLaunchOptions(): Promise<LaunchOptions> {
  return { executablePath: await resolveChromium(), args: CHROMIUM_ARGS, headless: true, env: { ...process.env, LANG: 'en_US.UTF-8' } };
}
