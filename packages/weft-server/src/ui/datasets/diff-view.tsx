/**
 * The difference between two versions of a dataset (dataset-diff.ts): counts, then the rows added, removed and changed.
 * @module
 */
import { preview } from '../call-facts';
import type { DatasetDiff } from './dataset-diff';
import { RowCells, SourceLink } from './dataset-rows';

/** A value as compact JSON, cut to `max` characters (a changed row shows what changed, not its first text). */
function json(v: unknown, max = 80): string {
  const text = JSON.stringify(v) ?? 'null';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function DiffView({ project, from, to, diff }: { project: string; from: number; to: number; diff: DatasetDiff }) {
  const expectedOf = (row: unknown): unknown => (row as { expected?: unknown } | null)?.expected;
  return (
    <section class="ds-diff" aria-label="version difference">
      <h3>v{from} → v{to}: <span data-diff="added">{diff.added.length} added</span>, <span data-diff="removed">{diff.removed.length} removed</span>, <span data-diff="changed">{diff.changed.length} changed</span>, {diff.same} the same</h3>
      <table class="ds-rows">
        <thead><tr><th /><th>input</th><th>expected</th><th>source</th></tr></thead>
        <tbody>
          {diff.added.map((row) => <tr class="ds-added-row"><td class="mark">+</td><RowCells project={project} row={row} /></tr>)}
          {diff.removed.map((row) => <tr class="ds-removed-row"><td class="mark">−</td><RowCells project={project} row={row} /></tr>)}
          {diff.changed.map(({ before, after }) => (
            <tr class="ds-changed-row">
              <td class="mark">~</td>
              <td title={JSON.stringify((after as { input?: unknown } | null)?.input)}>{preview((after as { input?: unknown } | null)?.input, 120)}</td>
              <td><del>{json(expectedOf(before))}</del> → <ins>{json(expectedOf(after))}</ins></td>
              <td><SourceLink project={project} row={after} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
