/**
 * The difference between two versions of a dataset (dataset-diff.ts): counts, then the rows added, removed and changed.
 * @module
 */
import type { DatasetDiff } from './dataset-diff';
import { cellText, RowCells, SourceLink } from './dataset-rows';

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
              <td title={JSON.stringify((after as { input?: unknown } | null)?.input)}>{cellText((after as { input?: unknown } | null)?.input)}</td>
              <td><del>{cellText(JSON.stringify(expectedOf(before)) ?? 'null', 80)}</del> → <ins>{cellText(JSON.stringify(expectedOf(after)) ?? 'null', 80)}</ins></td>
              <td><SourceLink project={project} row={after} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
