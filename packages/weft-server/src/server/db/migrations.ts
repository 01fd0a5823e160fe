/**
 * The ordered SQLite schema migrations of the local server and the runner that applies them once each.
 * @module
 */
import type Database from 'better-sqlite3';
import { SQLITE_CALL_ROLLUPS } from './call-rollup-migrations.js';
import { SQLITE_UNCOUNTED } from './rollup-edge-migrations.js';
import { SQLITE_FEEDBACK_ROLLUPS } from './feedback-rollup-migrations.js';
import { SQLITE_QUEUES } from './queue-migrations.js';
import { SQLITE_ROLLUP_CLAIMS } from './rollup-claim-migrations.js';

/** One schema step. `id`s are increasing and never reused; a shipped migration is never edited. */
export interface Migration {
  /** Position in the list, starting at 1. */
  readonly id: number;
  /** Short name, recorded in the `migrations` table. */
  readonly name: string;
  /** SQL run inside the migration's transaction. */
  readonly sql: string;
}

/**
 * Every migration, in order. The `calls` table holds one row per (project_id, id); a row made by an
 * end that arrived before its start has `started_at` NULL and is invisible to queries until the start lands.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'create_calls',
    sql: `
      CREATE TABLE calls (
        project_id   TEXT NOT NULL,
        id           TEXT NOT NULL,
        op_name      TEXT,
        display_name TEXT,
        trace_id     TEXT,
        parent_id    TEXT,
        thread_id    TEXT,
        turn_id      TEXT,
        started_at   TEXT,
        ended_at     TEXT,
        attributes   TEXT,
        inputs       TEXT,
        output       TEXT,
        exception    TEXT,
        summary      TEXT,
        otel_dump    TEXT,
        svc_user_id  TEXT,
        svc_run_id   TEXT,
        svc_run_step INTEGER,
        PRIMARY KEY (project_id, id)
      ) WITHOUT ROWID;
      CREATE INDEX calls_trace ON calls (project_id, trace_id);
      CREATE INDEX calls_parent ON calls (project_id, parent_id);
      CREATE INDEX calls_op_name ON calls (project_id, op_name);
      CREATE INDEX calls_started_at ON calls (project_id, started_at, id);
      CREATE TABLE call_refs (
        project_id TEXT NOT NULL,
        call_id    TEXT NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('input', 'output')),
        ref        TEXT NOT NULL,
        PRIMARY KEY (project_id, call_id, kind, ref)
      ) WITHOUT ROWID;
      CREATE INDEX call_refs_ref ON call_refs (project_id, kind, ref);
    `,
  },
  {
    id: 2,
    name: 'create_feedback',
    // payload is JSONB (SQLite's binary JSON): stats read paths out of it without parsing text.
    // call_id is the call the feedback is about (from svc_ref, else call_ref), for include_feedback.
    sql: `
      CREATE TABLE feedback (
        project_id     TEXT NOT NULL,
        id             TEXT NOT NULL,
        feedback_type  TEXT NOT NULL,
        svc_ref        TEXT NOT NULL,
        call_id        TEXT,
        payload        BLOB NOT NULL,
        annotation_ref TEXT,
        call_ref       TEXT,
        creator        TEXT,
        queue_id       TEXT,
        runnable_ref   TEXT,
        trigger_ref    TEXT,
        svc_user_id    TEXT,
        created_at     TEXT NOT NULL,
        UNIQUE (project_id, id)
      );
      CREATE INDEX feedback_created ON feedback (project_id, created_at);
      CREATE INDEX feedback_type_created ON feedback (project_id, feedback_type, created_at);
      CREATE INDEX feedback_call ON feedback (project_id, call_id);
    `,
  },
  {
    id: 3,
    name: 'create_tables',
    sql: `
      CREATE TABLE tables (
        project_id TEXT NOT NULL,
        digest     TEXT NOT NULL,
        row_count  INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (project_id, digest)
      ) WITHOUT ROWID;
      CREATE TABLE table_rows (
        project_id   TEXT NOT NULL,
        table_digest TEXT NOT NULL,
        row_index    INTEGER NOT NULL,
        row_digest   TEXT NOT NULL,
        val          TEXT NOT NULL,
        PRIMARY KEY (project_id, table_digest, row_index)
      ) WITHOUT ROWID;
      CREATE INDEX table_rows_digest ON table_rows (project_id, table_digest, row_digest);
    `,
  },
  {
    id: 4,
    name: 'create_trajectories_and_training_jobs',
    sql: `
      CREATE TABLE trajectories (
        model_id      TEXT NOT NULL,
        split         TEXT NOT NULL CHECK (split IN ('train', 'val', 'test')),
        group_id      TEXT NOT NULL,
        position      INTEGER NOT NULL,
        reward        REAL NOT NULL,
        message_count INTEGER NOT NULL,
        metrics       TEXT NOT NULL,
        trajectory    TEXT NOT NULL,
        logged_at     TEXT NOT NULL,
        PRIMARY KEY (model_id, group_id, position)
      ) WITHOUT ROWID;
      CREATE INDEX trajectories_split ON trajectories (model_id, split);
      CREATE TABLE training_jobs (
        id                  TEXT PRIMARY KEY,
        model_id            TEXT NOT NULL,
        status              TEXT NOT NULL,
        experimental_config TEXT,
        trajectory_groups   TEXT NOT NULL,
        group_count         INTEGER NOT NULL,
        trajectory_count    INTEGER NOT NULL,
        created_at          TEXT NOT NULL
      );
      CREATE INDEX training_jobs_model ON training_jobs (model_id, created_at);
    `,
  },
  {
    // Users for stream_query include_usernames; the filter indexes gain (started_at, id) so a filtered
    // query in the default order streams from the index without sorting first.
    id: 5,
    name: 'create_users',
    sql: `
      CREATE TABLE users (
        id       TEXT PRIMARY KEY,
        username TEXT NOT NULL
      ) WITHOUT ROWID;
      DROP INDEX calls_trace;
      CREATE INDEX calls_trace ON calls (project_id, trace_id, started_at, id);
      DROP INDEX calls_parent;
      CREATE INDEX calls_parent ON calls (project_id, parent_id, started_at, id);
      DROP INDEX calls_op_name;
      CREATE INDEX calls_op_name ON calls (project_id, op_name, started_at, id);
    `,
  },
  {
    // table_rows becomes a rowid table. WITHOUT ROWID kept each whole row, val included, in the primary-key
    // b-tree, and SQLite compares a key with a cell whose payload overflows by reading the whole payload: once
    // one huge row was stored, every insert whose search passed its cell read it again, so creating any later
    // table slowed with the size of that row. Now the b-tree searched on insert (the unique index) holds only
    // the short key columns, and val lives in the rowid table, which is searched by integer.
    id: 6,
    name: 'table_rows_rowid',
    sql: `
      CREATE TABLE table_rows_rowid (
        project_id   TEXT NOT NULL,
        table_digest TEXT NOT NULL,
        row_index    INTEGER NOT NULL,
        row_digest   TEXT NOT NULL,
        val          TEXT NOT NULL,
        UNIQUE (project_id, table_digest, row_index)
      );
      INSERT INTO table_rows_rowid (project_id, table_digest, row_index, row_digest, val)
        SELECT project_id, table_digest, row_index, row_digest, val FROM table_rows ORDER BY project_id, table_digest, row_index;
      DROP TABLE table_rows;
      ALTER TABLE table_rows_rowid RENAME TO table_rows;
      CREATE INDEX table_rows_digest ON table_rows (project_id, table_digest, row_digest);
    `,
  },
  {
    // Weave SDK compatibility: object versions (obj/create, obj/read, objs/query) and content-addressed files
    // (file/create, file/content). A version is keyed by its digest; version_index counts per object_id from 0.
    // call_renames holds a /call/update whose call has no stored start yet, applied when the start lands.
    id: 7,
    name: 'objects_and_files',
    sql: `
      CREATE TABLE objects (
        project_id        TEXT NOT NULL,
        object_id         TEXT NOT NULL,
        digest            TEXT NOT NULL,
        version_index     INTEGER NOT NULL,
        kind              TEXT NOT NULL,
        base_object_class TEXT,
        leaf_object_class TEXT,
        val               TEXT NOT NULL,
        created_at        TEXT NOT NULL,
        wb_user_id        TEXT,
        UNIQUE (project_id, object_id, digest),
        UNIQUE (project_id, object_id, version_index)
      );
      CREATE INDEX objects_created ON objects (project_id, created_at);
      CREATE TABLE files (
        project_id TEXT NOT NULL,
        digest     TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        content    BLOB NOT NULL,
        UNIQUE (project_id, digest)
      );
      CREATE TABLE call_renames (
        project_id   TEXT NOT NULL,
        call_id      TEXT NOT NULL,
        display_name TEXT,
        PRIMARY KEY (project_id, call_id)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Status counts and usage rolled up a trace by the server (calls/write/rollup.ts): sent_summary keeps an end's summary
    // as sent when descendants no client counted (OTel spans) were added into summary; calls_otel finds the traces
    // holding span calls, the only ones rolled up.
    id: 8,
    name: 'server_rollup',
    sql: `
      ALTER TABLE calls ADD COLUMN sent_summary TEXT;
      CREATE INDEX calls_otel ON calls (project_id, trace_id) WHERE otel_dump IS NOT NULL;
    `,
  },
  {
    // The run step when a call ended (an end's svc_run_step_end, Weave's wb_run_step_end), beside svc_run_step.
    id: 9,
    name: 'run_step_end',
    sql: 'ALTER TABLE calls ADD COLUMN svc_run_step_end INTEGER;',
  },
  {
    // Monitors (server/monitors/monitor-store.ts): online scoring of an op's sampled calls; cursor_* is the progress
    // over ended calls (ended_at, then id), so a restart resumes where the last pass stopped.
    id: 10,
    name: 'monitors',
    sql: `
      CREATE TABLE monitors (
        project_id      TEXT NOT NULL,
        id              TEXT NOT NULL,
        op_name         TEXT NOT NULL,
        scorer          TEXT NOT NULL,
        sample_rate     REAL NOT NULL,
        options         TEXT NOT NULL,
        created_at      TEXT NOT NULL,
        cursor_ended_at TEXT,
        cursor_call_id  TEXT,
        PRIMARY KEY (project_id, id)
      );
    `,
  },
  SQLITE_CALL_ROLLUPS,
  SQLITE_UNCOUNTED,
  SQLITE_FEEDBACK_ROLLUPS,
  SQLITE_QUEUES,
  SQLITE_ROLLUP_CLAIMS,
];

/**
 * Creates the `migrations` table if needed and applies, in order and each in its own transaction,
 * every migration not yet recorded there.
 *
 * @param db - an open connection (read-write).
 * @param migrations - the list to apply; defaults to {@link MIGRATIONS}.
 * @returns the names of the migrations applied by this call (empty when the schema was current).
 * @throws the SQLite error of a failing migration; that migration is rolled back.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const isDone = db.prepare('SELECT 1 FROM migrations WHERE id = ?');
  const record = db.prepare('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)');
  const applied: string[] = [];
  for (const m of migrations) {
    // IMMEDIATE takes the write lock before the check, so two processes opening one file never both apply it.
    const ran = db.transaction(() => {
      if (isDone.get(m.id)) return false;
      db.exec(m.sql);
      record.run(m.id, m.name, new Date().toISOString());
      return true;
    }).immediate();
    if (ran) applied.push(m.name);
  }
  return applied;
}
