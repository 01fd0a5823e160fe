// Every relative link of README.md and docs/*.md resolves: the file (or folder) exists in this repository, and an
// `#anchor` names a heading of the target as GitHub renders it (github-slugger's rule, repeats numbered).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, docFiles, githubSlug, relativeLinks, ROOT } from 'weft-test-kit/markdown.js';

/** GitHub's anchor of a line or a line range of a source file (`#L10`, `#L10-L20`). */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/;

/**
 * The links of `file` (a path from the root, its text `markdown`) that do not resolve, as `file:line target (why)`;
 * `read` gives the text of another Markdown file of the repository.
 */
function brokenLinks(file: string, markdown: string, read: (file: string) => string): string[] {
  const broken: string[] = [];
  for (const { line, target } of relativeLinks(markdown)) {
    const hash = target.indexOf('#');
    const rawPath = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const to = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(rawPath)));
    const why = to.startsWith('../') ? 'outside the repository'
      : to !== file && !existsSync(path.join(ROOT, to)) ? 'no such file'
      : anchor === undefined ? undefined
      : to.endsWith('.md') ? (anchors(to === file ? markdown : read(to)).has(anchor) ? undefined : `no heading #${anchor} in ${to}`)
      : LINE_ANCHOR.test(anchor) ? undefined : `#${anchor} in a file that is not Markdown`;
    if (why) broken.push(`${file}:${line} ${target} (${why})`);
  }
  return broken;
}

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

describe('links of README.md and docs/*.md', () => {
  it('all resolve', () => {
    const files = docFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/tracing.md', 'docs/server.md']));
    const all = files.flatMap((f) => relativeLinks(read(f)));
    expect(all.length).toBeGreaterThan(50); // the parser finds them
    expect(files.flatMap((f) => brokenLinks(f, read(f), read))).toEqual([]);
  });

  it('reports a missing file, a missing heading and a path out of the repository, in links and reference definitions', () => {
    const md = [
      '# Guide', '## Same (twice)', '## Same (twice)',
      'See [a](#guide), [b](#same-twice-1), [c](#nope), [d](missing.md), [e](../README.md#quick-start),',
      '[f](../README.md#no-such-heading), [g](../../etc/passwd), [h](../packages/weft-trace/src/index.ts#L3), `[i](#in-code)`.',
      '```md', '[j](#in-a-fence)', '```',
      '[k]: missing-too.md',
    ].join('\n');
    expect(brokenLinks('docs/guide.md', md, read)).toEqual([
      'docs/guide.md:4 #nope (no heading #nope in docs/guide.md)',
      'docs/guide.md:4 missing.md (no such file)',
      'docs/guide.md:5 ../README.md#no-such-heading (no heading #no-such-heading in README.md)',
      'docs/guide.md:5 ../../etc/passwd (outside the repository)',
      'docs/guide.md:9 missing-too.md (no such file)',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Configuration (`init()` options, env vars, defaults)')).toBe('configuration-init-options-env-vars-defaults');
    expect(githubSlug('LLM SDK wrappers: OpenAI, Anthropic, Vercel AI SDK')).toBe('llm-sdk-wrappers-openai-anthropic-vercel-ai-sdk');
    expect(githubSlug('OTel spans as calls: `WeftSpanProcessor` (`weft-trace/otel`)')).toBe('otel-spans-as-calls-weftspanprocessor-weft-traceotel');
    expect(githubSlug('Node.js versions')).toBe('nodejs-versions');
    expect(githubSlug('In vitest: `weft-trace/vitest`')).toBe('in-vitest-weft-tracevitest');
    expect(githubSlug('What a user of LangSmith\'s pytest plugin or Braintrust\'s `Eval()` still misses')).toBe('what-a-user-of-langsmiths-pytest-plugin-or-braintrusts-eval-still-misses');
    expect(githubSlug('Straße & [links](x.md) *kept*  twice')).toBe('straße--links-kept--twice');
    expect([...anchors('# A\n## A\n### A\n<a id="x"></a>')]).toEqual(['a', 'a-1', 'a-2', 'x']);
  });
});
