// When a page of the viewer is drawn, measured in Chromium (bench/ui.bench.ts, bench/overview-rollups.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { build } from 'vite';

/**
 * ms from navigation start to the frame that draws each of `marks` (name → a JS condition on the DOM), in a fresh
 * page (no cache): a MutationObserver notes the first DOM change after which the condition holds, and the time of
 * the next animation frame is the mark's (the page's own clock, `performance.now()`).
 */
export async function pageMarks(browser: Browser, url: string, hash: string, marks: Record<string, string>): Promise<Record<string, number>> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(`(() => {
      const marks = { ${Object.entries(marks).map(([k, cond]) => `${JSON.stringify(k)}: () => ${cond}`).join(', ')} };
      const at = (window.__marks = {});
      const check = () => {
        for (const [k, cond] of Object.entries(marks)) {
          if (at[k] === undefined && cond()) { at[k] = -1; requestAnimationFrame(() => { at[k] = performance.now(); }); }
        }
      };
      new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    })()`);
    await page.goto(`${url}/${hash}`);
    const names = Object.keys(marks);
    await page.waitForFunction((ks) => ks.every((k) => ((window as unknown as { __marks: Record<string, number> }).__marks[k] ?? -1) > 0), names, { timeout: 120_000, polling: 50 });
    return await page.evaluate(() => (window as unknown as { __marks: Record<string, number> }).__marks);
  } finally {
    await context.close();
  }
}

/** The trace page's marks (`#/p/<project>/trace/<id>`): its first tree rows; the whole tree (rows, and no trace loading line left); the selected call's full record. */
export const TRACE_MARKS: Record<string, string> = {
  rows: `!!document.querySelector('.calls .crow[data-call]')`,
  whole: `!!document.querySelector('.calls .crow[data-call]') && !document.querySelector('.page.trace > [data-load]')`,
  detail: `!!document.querySelector('.detail[data-call]')`,
};

/**
 * Builds the viewer's page as `npm run build` makes it (packages/weft-server/vite.config.ts) into `outDir`: the `ui/`
 * beside a server build, where that server finds it (`findUiDir`).
 */
export async function buildUi(outDir: string): Promise<void> {
  const pkg = fileURLToPath(new URL('../../packages/weft-server/', import.meta.url));
  await build({ configFile: join(pkg, 'vite.config.ts'), root: join(pkg, 'src', 'ui'), logLevel: 'warn', build: { outDir, emptyOutDir: true, reportCompressedSize: false } });
}
