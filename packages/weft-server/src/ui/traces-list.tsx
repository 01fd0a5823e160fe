/**
 * The traces list: one row per root call, newest first, filtered, loaded a page at a time as the user
 * scrolls (a windowed list; each page from a keyset cursor, traces-query.ts), and polled for new traces while live;
 * rows selected by their checkboxes can be added to a dataset together.
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CALL_STATUSES } from 'weft-trace/viewer';
import { type CallRecord, exceptionOf, streamQuery } from './api';
import { bytesText, callName, cost, duration, shortOp, statusOf, tokens, usd } from './format';
import { type CallFiles, filesOf } from './media/call-files';
import { clock, localZone, time } from './time';
import { href } from './route';
import { cursorAfter, filtersFromQuery, filtersToQuery, NO_FILTERS, type TraceFilters, tracesQuery } from './traces-query';
import { VirtualRows } from './virtual-rows';
import { AddToDataset } from './datasets/add-to-dataset';
import { feedbackBrief } from './feedback/feedback-items';
import { modelsOf, preview } from './call-facts';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from './load-status';

const PAGE = 100;
const ROW_HEIGHT = 34;
const POLL_MS = 2000;

function Filters({ value, onChange }: { value: TraceFilters; onChange: (f: TraceFilters) => void }) {
  const [draft, setDraft] = useState(value);
  const set = (k: keyof TraceFilters) => (e: Event) => setDraft({ ...draft, [k]: k === 'sinceMinutes' ? Number((e.target as HTMLInputElement).value) : (e.target as HTMLInputElement).value });
  return (
    <form class="filters" onSubmit={(e) => { e.preventDefault(); onChange(draft); }}>
      <input placeholder="op name" value={draft.op} onInput={set('op')} aria-label="op name" />
      <select value={draft.status} onChange={set('status')} aria-label="status">
        <option value="">any status</option>
        {CALL_STATUSES.map((s) => <option value={s}>{statusOf(s).word}</option>)}
      </select>
      <select value={draft.sinceMinutes} onChange={set('sinceMinutes')} aria-label="time range">
        <option value={0}>any time</option>
        <option value={15}>last 15 min</option>
        <option value={60}>last hour</option>
        <option value={1440}>last 24 h</option>
        <option value={10080}>last 7 days</option>
      </select>
      <input placeholder="thread id" value={draft.threadId} onInput={set('threadId')} aria-label="thread id" />
      <input placeholder="run id" value={draft.runId} onInput={set('runId')} aria-label="run id" />
      <input placeholder="text in inputs / output" value={draft.text} onInput={set('text')} aria-label="text" />
      <button type="submit">Filter</button>
      <button type="button" onClick={() => { setDraft(NO_FILTERS); onChange(NO_FILTERS); }}>Clear</button>
    </form>
  );
}

/** The `files` cell: the media files a root refers to, counted apart from its JSON (`2 · 305.0 KB`), and dropped ones. */
function filesCell(files: CallFiles): string {
  const stored = files.count > 0 ? `${files.count} · ${bytesText(files.bytes)}` : '';
  const dropped = files.dropped > 0 ? `${files.dropped} dropped` : '';
  return [stored, dropped].filter((t) => t !== '').join(', ');
}

/** One trace's row; its checkbox (its own activation, so a click on it does not follow the row's link) selects it. */
function Row({ call, project, selected, onToggle }: { call: CallRecord; project: string; selected: boolean; onToggle: (call: CallRecord) => void }) {
  const st = statusOf(call.summary.status);
  const tok = tokens(call);
  const usdCost = cost(call);
  const exc = exceptionOf(call);
  return (
    <a class="trow" href={href({ view: 'trace', project, traceId: call.trace_id })} data-trace={call.trace_id}>
      <input type="checkbox" aria-label={`select ${callName(call)}`} checked={selected} onClick={(e) => e.stopPropagation()} onChange={() => onToggle(call)} />
      <span class={`status s-${call.summary.status}`} title={st.word}>{st.icon} {st.word}</span>
      <span class="name" title={call.op_name}>{callName(call)}{call.display_name ? <span class="muted"> {shortOp(call.op_name)}</span> : null}</span>
      <span class="preview" data-col="input" title={preview(call.inputs, 500)}>{preview(call.inputs)}</span>
      <span class="preview" data-col="output" title={preview(call.output, 500)}>{exc ? `${exc.type ?? 'Error'}: ${exc.message ?? ''}` : preview(call.output)}</span>
      <span class="model" data-col="model" title={modelsOf(call)}>{modelsOf(call)}</span>
      <span class="when" title={time(call.started_at)}>{clock(call.started_at)}</span>
      <span class="num">{duration(call.summary.latency_ms)}</span>
      <span class="num">{tok === null ? '' : `${tok} tok`}</span>
      <span class="files-col" data-col="files">{filesCell(filesOf(call))}</span>
      <span class="num">{usdCost === null ? '' : usd(usdCost)}</span>
      <span class="num fb-col">{feedbackBrief(call.summary.feedback)}</span>
    </a>
  );
}

/** The list of traces of one project; its filters live in the URL (`q`, see traces-query.ts). */
export function TracesList({ project, q, onError }: { project: string; q?: Record<string, string>; onError: (e: unknown) => void }) {
  const qKey = JSON.stringify(q ?? {});
  const filters = useMemo(() => filtersFromQuery(q), [qKey]); // keyed by the query text: a new object per render, the same filters
  const setFilters = (f: TraceFilters): void => { location.hash = href({ view: 'traces', project, q: filtersToQuery(f) }); };
  const [rows, setRows] = useState<CallRecord[]>([]);
  const [done, setDone] = useState(false);
  const [live, setLive] = useState(true);
  const [status, setStatus] = useState<LoadState>(LOADING);
  const loading = useRef(false);
  const generation = useRef(0);

  const [selected, setSelected] = useState<CallRecord[]>([]);
  const toggle = useCallback((call: CallRecord) => setSelected((sel) => (sel.some((c) => c.id === call.id) ? sel.filter((c) => c.id !== call.id) : [...sel, call])), []);
  const rowsRead = useRef<CallRecord[]>([]);
  rowsRead.current = rows;

  /** Reads the first page (`reset`) or the page after the rows read so far. */
  const load = useCallback(async (reset: boolean) => {
    if (loading.current && !reset) return;
    loading.current = true;
    const gen = reset ? ++generation.current : generation.current;
    setStatus(LOADING);
    try {
      const page = await streamQuery(tracesQuery(project, filters, PAGE, reset ? undefined : cursorAfter(rowsRead.current)));
      if (gen !== generation.current) return;
      setRows((old) => (reset ? page : [...old, ...page]));
      setDone(page.length < PAGE);
      setStatus(DONE);
    } catch (e) {
      if (gen === generation.current) reportFailure(e, setStatus, onError);
    } finally {
      loading.current = false;
    }
  }, [project, filters, onError]);

  useEffect(() => {
    setRows([]);
    setDone(false);
    void load(true);
  }, [load]);

  // live: fetch the newest page again; new roots go on top, known ones are updated in place
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      const gen = generation.current;
      streamQuery(tracesQuery(project, filters, PAGE)).then((page) => {
        if (gen !== generation.current) return;
        setRows((old) => {
          const fresh = new Map(page.map((c) => [c.id, c]));
          const known = new Set(old.map((c) => c.id));
          const added = page.filter((c) => !known.has(c.id));
          return [...added, ...old.map((c) => fresh.get(c.id) ?? c)];
        });
      }, onError);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [live, project, filters, onError]);

  const onRange = useCallback((last: number) => {
    if (!done && last >= rows.length - 20 && rows.length > 0) void load(false);
  }, [done, rows.length, load]);

  return (
    <div class="page traces">
      <Filters key={qKey} value={filters} onChange={setFilters} />
      <div class="listhead">
        <span>{rows.length}{done ? '' : '+'} traces, newest first</span>
        <label><input type="checkbox" checked={live} onChange={() => setLive(!live)} /> live</label>
      </div>
      {selected.length > 0 ? (
        <div class="selbar">
          <span>{selected.length} selected</span>
          <AddToDataset project={project} calls={selected.map((c) => ({ id: c.id, output: c.output, label: callName(c) }))} />
          <button type="button" class="link" onClick={() => setSelected([])}>clear selection</button>
        </div>
      ) : null}
      <div class="trow thead"><span /><span>status</span><span>op / name</span><span>input</span><span>output</span><span>model</span><span title={`start times in ${localZone()}`}>started ({localZone()})</span><span class="num">latency</span><span class="num">tokens</span><span class="files-col" data-col="files" title="media files the trace's root refers to, counted apart from its JSON: how many and their size">files</span><span class="num">cost</span><span class="num">feedback</span></div>
      <VirtualRows class="tlist" count={rows.length} rowHeight={ROW_HEIGHT} onRange={onRange} row={(i) => <Row call={rows[i]!} project={project} selected={selected.some((c) => c.id === rows[i]!.id)} onToggle={toggle} />} />
      <LoadStatus state={status} what={rows.length === 0 ? 'traces' : 'more traces'} />
      {rows.length === 0 && done ? <p class="empty">No traces match in project {project}.</p> : null}
    </div>
  );
}
