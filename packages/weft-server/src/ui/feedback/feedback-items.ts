/**
 * Feedback as the viewer stores and reads it: thumbs (`thumbs`, `{up}`), notes (`note`, `{note}`) and named scores
 * (`score`, `{<name>: number}`), the same items the SDK's `addFeedback` sends; and a one-line brief of a call's
 * feedback for the list. Pure.
 * @module
 */

/** A feedback record of `summary.feedback` (with `include_feedback`). */
export interface FeedbackRecord {
  id: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  creator?: string | null;
  created_at?: string;
}

/** What the page can add: a thumb, a note, a named score. */
export type Reaction = { kind: 'thumbs'; up: boolean } | { kind: 'note'; note: string } | { kind: 'score'; name: string; value: number };

/**
 * The `/feedback/batch/create` item of a reaction on a call, as `addFeedback(callId, ...)` makes it: `svc_ref` and
 * `call_ref` the call ref `svc:///<project>/call/<id>`, the id a UUIDv7 made by the caller.
 */
export function feedbackItem(project: string, callId: string, r: Reaction, creator: string, id: string): Record<string, unknown> {
  const ref = `svc:///${project}/call/${callId}`;
  const [feedback_type, payload] =
    r.kind === 'thumbs' ? ['thumbs', { up: r.up }] : r.kind === 'note' ? ['note', { note: r.note }] : ['score', { [r.name]: r.value }];
  return { id, project_id: project, svc_ref: ref, call_ref: ref, feedback_type, payload, creator };
}

/** `true` / `false` for a thumbs record (`{up}`, or the stats example's `{thumbs_up}`), else undefined. */
export function thumbOf(f: FeedbackRecord): boolean | undefined {
  const v = f.payload['up'] ?? f.payload['thumbs_up'];
  return f.feedback_type === 'thumbs' || typeof f.payload['thumbs_up'] === 'boolean' ? (typeof v === 'boolean' ? v : undefined) : undefined;
}

/** One line for the list's feedback column: `▲ 2 ▼ 1 · 3 more`; empty when none. */
export function feedbackBrief(list: readonly unknown[] | undefined): string {
  if (!list || list.length === 0) return '';
  let up = 0;
  let down = 0;
  for (const f of list as FeedbackRecord[]) {
    const t = thumbOf(f);
    if (t === true) up += 1;
    else if (t === false) down += 1;
  }
  const rest = list.length - up - down;
  return [up ? `▲ ${up}` : '', down ? `▼ ${down}` : '', rest ? `${up + down ? '· ' : ''}${rest} fb` : ''].filter(Boolean).join(' ');
}

/** A record's payload in a few words: `note "..."`, `accuracy = 0.8`, or its JSON. */
export function payloadText(f: FeedbackRecord): string {
  const t = thumbOf(f);
  if (t !== undefined) return t ? '▲' : '▼';
  if (f.feedback_type === 'note' && typeof f.payload['note'] === 'string') return f.payload['note'];
  const entries = Object.entries(f.payload);
  if (entries.length === 1 && typeof entries[0]![1] === 'number') return `${entries[0]![0]} = ${entries[0]![1]}`;
  return JSON.stringify(f.payload);
}
