/**
 * Test helper: the Markdown a user reads (README.md and the guides in docs/), read as GitHub renders it: fenced
 * blocks, headings and the anchors GitHub gives them, and the relative links of the prose.
 * @module
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

/** README.md, then every docs/*.md, as paths from the repository root (docs/api/, typedoc's output, is not one). */
export function docFiles(): string[] {
  const guides = readdirSync(path.join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).sort();
  return ['README.md', ...guides.map((n) => `docs/${n}`)];
}

/** A fenced block (```info ... ```): its info string, its code, and the lines (1-based) of its opening and closing fences. */
export interface Fence { line: number; endLine: number; info: string; code: string }

/** A line that opens or closes a fence: three or more backticks or tildes, indented at most 3 spaces. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The fenced blocks of `markdown`, in order; an unclosed fence runs to the end (CommonMark). */
export function fences(markdown: string): Fence[] {
  const found: Fence[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const marker = open[1]!;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^ {0,3}${marker[0]}{${marker.length},}\\s*$`).test(lines[end]!)) end++;
    found.push({ line: i + 1, endLine: end + 1, info: open[2]!.trim(), code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

/** `markdown`'s lines with the fenced blocks blanked (their line numbers kept), i.e. the prose. */
function prose(markdown: string): string[] {
  const lines = markdown.split('\n');
  for (const f of fences(markdown)) {
    for (let i = f.line - 1; i < f.endLine && i < lines.length; i++) lines[i] = '';
  }
  return lines;
}

/**
 * The anchor GitHub gives a heading (the github-slugger rule): the rendered text (code spans, links and emphasis
 * reduced to their text), lower-cased, with every character but letters, marks, digits, `_`, `-` and spaces
 * removed, and each space made a `-`.
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** Every anchor of `markdown`: its ATX headings' slugs (a repeated slug gets `-1`, `-2`, ...) and explicit `id`s / `name`s. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      found.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(m[1]!);
  }
  return found;
}

/** A link of the prose to a file of this repository or an anchor: `[text](target)` or `![alt](target)`. */
export interface Link { line: number; target: string }

/**
 * The relative links of `markdown`'s prose: inline ones and reference definitions (`[name]: target`); code spans and
 * fenced blocks skipped, URLs with a scheme left out.
 */
export function relativeLinks(markdown: string): Link[] {
  const found: Link[] = [];
  prose(markdown).forEach((line, i) => {
    const text = line.replace(/`[^`]*`/g, '');
    const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/.exec(text)?.[1];
    for (const target of definition ? [...inline, definition] : inline) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) found.push({ line: i + 1, target });
    }
  });
  return found;
}
