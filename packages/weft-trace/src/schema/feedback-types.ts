/**
 * Weave's feedback types with rules of their own, and the checks its trace server applies to them on create
 * (`weave/trace_server/feedback.py`, `validate_feedback_create_req`; `interface/feedback_types.py`). The interface
 * spec is silent here; weft checks what Weave checks for reactions, notes and runnable (scorer) feedback, and
 * lists what it does not check in docs/interface-notes.md ("Feedback create").
 * @module
 */
import type { z } from 'zod';
import { parseRef } from './refs.js';

/** A reaction: `payload.emoji` is exactly one emoji; the server adds `alias`, `detoned` and `detoned_alias`. */
export const REACTION_FEEDBACK_TYPE = 'wandb.reaction.1';
/** A note: `payload.note` is a string of 1 to {@link MAX_FEEDBACK_NOTE_LENGTH} characters. */
export const NOTE_FEEDBACK_TYPE = 'wandb.note.1';
/** Longest note Weave stores, in characters. */
export const MAX_FEEDBACK_NOTE_LENGTH = 1024;
/** Prefix of runnable (scorer) feedback types: `wandb.runnable.<scorer name>`. */
export const RUNNABLE_FEEDBACK_TYPE_PREFIX = 'wandb.runnable';
/** Largest payload stored, as the bytes of its JSON text (Weave: `CLICKHOUSE_MAX_FEEDBACK_PAYLOAD_SIZE`, 1 MiB). */
export const MAX_FEEDBACK_PAYLOAD_BYTES = 1024 * 1024;

/** The fields of a feedback item these rules read. */
interface TypedItem {
  feedback_type: string;
  payload: Record<string, unknown>;
  runnable_ref?: string | null | undefined;
  call_ref?: string | null | undefined;
}

/** The `<name>` of an op or object ref's `<name>:<digest>`. */
function refName(ref: string): string | undefined {
  const parsed = parseRef(ref);
  return parsed && parsed.kind !== 'call' ? parsed.rest.slice(0, parsed.rest.lastIndexOf(':')) : undefined;
}

/**
 * Adds an issue to `ctx` for each of Weave's feedback-type rules that `item` breaks (a zod `superRefine` step):
 * - `wandb.reaction.1`: `payload.emoji` is a string (that it is one emoji is checked by the server, which names it);
 * - `wandb.note.1`: `payload.note` is a string of 1 to 1,024 characters;
 * - `wandb.runnable*`: the type is `wandb.runnable.<name>`; `runnable_ref` is required and names `<name>`; a
 *   runnable op (an op ref) needs `call_ref` (the scorer's call); `payload` has an `output` key;
 * Weave also refuses `runnable_ref`, `call_ref` and `trigger_ref` on every other type; weft keeps them (the spec
 * lists them on any item, `addFeedback` sets `call_ref` to the call and takes `runnableRef` with any type, and
 * `/feedback/stats` filters any feedback by `trigger_ref`): docs/interface-notes.md.
 * The payload's size is checked by the server on the payload it stores ({@link MAX_FEEDBACK_PAYLOAD_BYTES}).
 */
export function checkFeedbackType(item: TypedItem, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string): void => ctx.addIssue({ code: 'custom', path, message });
  const type = item.feedback_type;
  if (type === REACTION_FEEDBACK_TYPE && typeof item.payload['emoji'] !== 'string') {
    issue(['payload', 'emoji'], `a ${REACTION_FEEDBACK_TYPE} payload needs emoji: one emoji as a string`);
  }
  if (type === NOTE_FEEDBACK_TYPE) {
    const note = item.payload['note'];
    if (typeof note !== 'string' || note.length < 1 || note.length > MAX_FEEDBACK_NOTE_LENGTH) {
      issue(['payload', 'note'], `a ${NOTE_FEEDBACK_TYPE} payload needs note: a string of 1 to ${MAX_FEEDBACK_NOTE_LENGTH} characters`);
    }
  }
  if (!type.startsWith(RUNNABLE_FEEDBACK_TYPE_PREFIX)) return;
  if (!type.startsWith(`${RUNNABLE_FEEDBACK_TYPE_PREFIX}.`)) {
    issue(['feedback_type'], `invalid runnable feedback type ${JSON.stringify(type)}: expected ${RUNNABLE_FEEDBACK_TYPE_PREFIX}.<name>`);
    return;
  }
  const name = type.slice(RUNNABLE_FEEDBACK_TYPE_PREFIX.length + 1);
  if (!item.runnable_ref) issue(['runnable_ref'], 'runnable_ref is required for runnable feedback');
  else if (refName(item.runnable_ref) !== undefined && refName(item.runnable_ref) !== name) {
    issue(['runnable_ref'], `runnable_ref must point to an op or object named ${JSON.stringify(name)}`);
  } else if (parseRef(item.runnable_ref)?.kind === 'op' && !item.call_ref) {
    issue(['call_ref'], 'call_ref is required for runnable feedback on ops');
  }
  if (!('output' in item.payload)) issue(['payload', 'output'], 'a runnable feedback payload needs output');
}
