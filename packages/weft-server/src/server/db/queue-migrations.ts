/**
 * Migration 14 of both engines (issue 50): review queues and their items (queues/queue-store.ts, queues/queue-claims.ts),
 * and an index of the feedback given through a queue (`queue_id`, partial: feedback without one costs it nothing).
 * `queues.dynamic` / `monitor` are JSON text (a dynamic queue's filter and sample rate; a monitor's id and threshold),
 * `cursor` the fill's progress (JSON text). An item is `pending`, `taken` (by `reviewer` until `claim_expires_at`,
 * after which it is pending again), `done` or `skipped`; `other_call_id` is a pair's second call (`''` for a single
 * call, so the unique key holds).
 * @module
 */

const tables = (text: string, tail: string): string => `
  CREATE TABLE queues (
    project_id   ${text} NOT NULL,
    id           ${text} NOT NULL,
    name         ${text} NOT NULL,
    instructions ${text} NOT NULL,
    fields       ${text} NOT NULL,
    scope        ${text} NOT NULL,
    dynamic      ${text},
    monitor      ${text},
    cursor       ${text},
    created_at   ${text} NOT NULL,
    PRIMARY KEY (project_id, id)
  )${tail};
  CREATE UNIQUE INDEX queues_name ON queues (project_id, name);
  CREATE TABLE queue_items (
    project_id       ${text} NOT NULL,
    queue_id         ${text} NOT NULL,
    id               ${text} NOT NULL,
    call_id          ${text} NOT NULL,
    other_call_id    ${text} NOT NULL,
    trace_id         ${text},
    thread_id        ${text},
    status           ${text} NOT NULL,
    reviewer         ${text},
    claim_expires_at ${text},
    done_at          ${text},
    added_at         ${text} NOT NULL,
    PRIMARY KEY (project_id, queue_id, id)
  )${tail};
  CREATE UNIQUE INDEX queue_items_target ON queue_items (project_id, queue_id, call_id, other_call_id);
  CREATE INDEX queue_items_order ON queue_items (project_id, queue_id, status, added_at, id);
  CREATE INDEX feedback_queue ON feedback (project_id, queue_id, created_at) WHERE queue_id IS NOT NULL;`;

/** SQLite's migration 14. */
export const SQLITE_QUEUES = { id: 14, name: 'review_queues', sql: tables('TEXT', ' WITHOUT ROWID') } as const;

/** PostgreSQL's migration 14, the twin of SQLite's. */
export const PG_QUEUES = { id: 14, name: 'review_queues', sql: tables('text COLLATE "C"', '') } as const;
