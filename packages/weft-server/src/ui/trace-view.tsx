/**
 * One trace: the call tree (collapsible, children in start order) beside a waterfall (a bar per call placed by
 * its start and end), and the selected call's detail. Polls while calls are running.
 * @module
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type CallRecord, type StreamQuery, streamQuery } from './api';
import { CallDetail } from './call-detail';
import { type CallTree, indentPx, TreeBuilder, visibleRows } from './call-tree';
import { callName, duration, statusOf } from './format';
import { href } from './route';
import { traceTarget } from './trace-ids';
import { VirtualRows } from './virtual-rows';
import { CallCost, TraceTotals } from './call-cost';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from './load-status';
import { streamWithProgress } from './stream-progress';
import { ColumnResize } from './column-resize';

const ROW_HEIGHT = 26;
const POLL_MS = 1500;
/** Least time between two drawings of the tree and its count while it streams in, ms. */
const REDRAW_MS = 250;
/** Narrowest the call column is resized to, and the least room it leaves the waterfall (styles.css `.crow`), px. */
const MIN_TREE_PX = 160;
const MIN_WATER_PX = 80;
/** Calls read first, alone: more than a screen of rows (the rest streams in after). */
const FIRST_SCREEN = 200;

/**
 * The columns the tree and waterfall need, and each call's cost (`summary.costs`, priced by the server from the usage
 * it already read: cheap); the selected call's full record is read on its own (call-detail.tsx).
 */
const TREE_COLUMNS = ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'summary'];

/** The tree's stream query: the trace's calls in start order, the tree's columns and costs only. */
function treeQuery(project: string, traceId: string): StreamQuery {
  return {
    project_id: project,
    filter: { trace_ids: [traceId] },
    sort_by: [{ field: 'started_at', direction: 'asc' }],
    columns: TREE_COLUMNS,
    include_costs: true,
  };
}

/** The call with `id` (with or without dashes: the server matches both forms), its id and trace id only. */
async function callById(project: string, id: string): Promise<CallRecord | undefined> {
  const [call] = await streamQuery({ project_id: project, filter: { call_ids: [id] }, columns: ['id', 'trace_id'], limit: 1 });
  return call;
}

/** What the page draws: the tree of the calls read, and how many there are. */
interface Drawn {
  tree: CallTree<CallRecord>;
  count: number;
  running: boolean;
}

/**
 * The trace page. Its first screen is read alone and drawn, then the whole tree streams in: the status line counts the
 * calls as the JSONL arrives, and the tree grows as they do ({@link TreeBuilder}: calls come in start order, and each
 * drawing costs the rows flattened, not the tree rebuilt); a running trace is read again every
 * {@link POLL_MS} ms, its rows replaced once each read is whole.
 */
export function TraceView({ project, traceId, callId, onError }: { project: string; traceId: string; callId?: string; onError: (e: unknown) => void }) {
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const [load, setLoad] = useState<LoadState>(LOADING);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  /** The call column's width once resized (styles.css `--tree-col`), px; before that, 3/5 of the pane. */
  const [treeCol, setTreeCol] = useState<number | null>(null);
  const pane = useRef<HTMLDivElement>(null);
  const resize = (px: number): void => setTreeCol(Math.round(Math.max(MIN_TREE_PX, Math.min(px, (pane.current?.clientWidth ?? Infinity) - MIN_WATER_PX))));

  // a layout effect: the read starts before the first frame is painted, not after it
  useLayoutEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** A drawing of the tree read so far, waiting for its turn (see REDRAW_MS). */
    let partial: ReturnType<typeof setTimeout> | undefined;
    const ctl = new AbortController();
    const draw = (builder: TreeBuilder<CallRecord>): void => {
      setDrawn({ tree: builder.tree(), count: builder.size, running: builder.hasRunning });
    };
    const tick = async (poll: boolean): Promise<void> => {
      const builder = new TreeBuilder<CallRecord>();
      let drawnAt = -Infinity;
      let added = 0;
      /** The tree and the count of the calls read so far, drawn together (a later drawing then waits REDRAW_MS). */
      const drawSoFar = (): void => {
        partial = undefined;
        if (stop) return;
        drawnAt = performance.now();
        draw(builder);
        setLoad({ phase: 'loading', count: builder.size });
      };
      // the first read: its first screen alone first (a sort with a limit: a small answer the server and the page are
      // through with at once, where the whole trace's first chunk came with the rest of the stream behind it, and the
      // selected call's read after it), drawn; then the whole trace, the first screen's calls skipped by the builder
      const head = poll ? [] : await streamQuery({ ...treeQuery(project, traceId), limit: FIRST_SCREEN }, ctl.signal);
      for (const c of head) builder.add(c);
      if (head.length > 0 && !stop) drawSoFar();
      const found = !poll && head.length < FIRST_SCREEN ? head : await streamWithProgress(treeQuery(project, traceId), (records, done) => {
        for (; added < records.length; added += 1) builder.add(records[added]!);
        // a poll's rows are replaced once its read is whole; the first read is drawn as it comes, at most every
        // REDRAW_MS (each drawing renders the page again, on the main thread that parses the JSONL), and what was read
        // last is drawn even when the answer then stalls
        if (stop || poll || done || partial !== undefined) return;
        const wait = drawnAt + REDRAW_MS - performance.now();
        if (wait <= 0) drawSoFar();
        else partial = setTimeout(drawSoFar, wait);
      }, ctl.signal).finally(() => {
        clearTimeout(partial);
        partial = undefined;
      });
      if (stop) return;
      // a call id in the URL, or an id without dashes: open the call's trace, as stored, with the call selected
      const target = await traceTarget(found, traceId, callId, (id) => callById(project, id));
      if (stop) return;
      if (target) {
        location.replace(href({ view: 'trace', project, ...target }));
        return;
      }
      draw(builder);
      setLoad(DONE);
      if (found.length === 0 || found.some((c) => c.ended_at === null)) timer = setTimeout(() => void run(true), POLL_MS);
    };
    const run = (poll: boolean): Promise<void> => tick(poll).catch((e: unknown) => {
      if (!stop) reportFailure(e, setLoad, onError);
    });
    void run(false);
    return () => {
      stop = true;
      ctl.abort();
      clearTimeout(timer);
      clearTimeout(partial);
    };
  }, [project, traceId, callId, onError]);

  const tree = drawn?.tree;
  const rows = useMemo(() => (tree ? visibleRows(tree, collapsed) : []), [tree, collapsed]);
  const loading = load.phase === 'loading';
  if (!tree || !drawn || drawn.count === 0) {
    return (
      <div class="page trace">
        <div class="tracehead"><a href={href({ view: 'traces', project })}>← traces</a><span>trace <code>{traceId}</code></span></div>
        {load.phase === 'done' ? <p>No calls yet in trace {traceId} of project {project}; waiting for them.</p> : <LoadStatus state={load} what="calls" />}
      </div>
    );
  }
  // the call in the URL; while the tree streams in, a placeholder until it has arrived
  const selected = callId !== undefined ? tree.byId.get(callId) ?? (loading ? undefined : tree.roots[0]!) : tree.roots[0]!;
  const span = tree.t1 - tree.t0;
  const toggle = (id: string): void => {
    const next = new Set(collapsed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };

  const row = (i: number) => {
    const { call, depth, childCount } = rows[i]!;
    const st = statusOf(call.summary.status);
    const start = Date.parse(call.started_at) - tree.t0;
    const end = (call.ended_at ? Date.parse(call.ended_at) : tree.t1) - tree.t0;
    const left = (start / span) * 100;
    const width = Math.max(((end - start) / span) * 100, 0.2);
    return (
      <div class={`crow ${call.id === selected?.id ? 'selected' : ''}`} data-call={call.id}>
        <div class="ctree" style={{ paddingLeft: `${indentPx(depth)}px` }}>
          {childCount > 0 ? (
            <button class="twisty" aria-label={collapsed.has(call.id) ? 'expand' : 'collapse'} onClick={() => toggle(call.id)}>
              {collapsed.has(call.id) ? '▸' : '▾'}
            </button>
          ) : <span class="twisty" />}
          <a href={href({ view: 'trace', project, traceId, callId: call.id })} class="cname" title={call.op_name}>
            <span class={`s-${call.summary.status}`} title={st.word}>{st.icon}</span> {callName(call)}
            {childCount > 0 && collapsed.has(call.id) ? <span class="muted"> (+{childCount})</span> : null}
          </a>
          <CallCost call={call} childCount={childCount} root={depth === 0} />
        </div>
        <div class="cwater">
          <div class={`bar b-${call.summary.status}`} style={{ left: `${left}%`, width: `${width}%` }} title={`${duration(call.summary.latency_ms)} ${st.word}`} />
          <span class="bartext" style={{ left: `${Math.min(left + width, 85)}%` }}>{duration(call.summary.latency_ms)}</span>
        </div>
      </div>
    );
  };

  return (
    <div class="page trace">
      <div class="tracehead">
        <a href={href({ view: 'traces', project })}>← traces</a>
        <span>trace <code>{traceId}</code></span>
        <span data-count={drawn.count}>{drawn.count.toLocaleString('en-US')} calls{loading ? ' so far' : ''}, {duration(span)}</span>
        <TraceTotals roots={tree.roots} />
        {!loading && drawn.running ? <span class="s-running">◌ running (live)</span> : null}
      </div>
      <LoadStatus state={load} what="calls" />
      <div class="split">
        <div class="treepane" ref={pane} style={treeCol === null ? undefined : ({ '--tree-col': `${treeCol}px` } as Record<string, string>)}>
          <div class="crow chead"><div class="ctree">call<ColumnResize label="resize the call column" onResize={resize} /></div><div class="cwater">0 — {duration(span)}</div></div>
          <VirtualRows class="calls" count={rows.length} rowHeight={ROW_HEIGHT} row={row} />
        </div>
        {selected ? <CallDetail key={selected.id} brief={selected} project={project} onError={onError} /> : <div class="detail"><p class="loading" role="status">loading call {callId}…</p></div>}
      </div>
    </div>
  );
}
