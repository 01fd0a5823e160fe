/**
 * The ordered PostgreSQL schema migrations of `weft serve --db postgres://...`: the same tables as the SQLite
 * migrations (db/migrations.ts, as of its migration 8), in PostgreSQL's types.
 *
 * Representation choices, so that answers are identical to the SQLite store's:
 * - every text column is `COLLATE "C"`: comparisons and ORDER BY go by code point, as SQLite's BINARY collation;
 * - timestamps stay the normalized ISO 8601 UTC text the SQLite store keeps (`2024-05-01T10:00:00.000Z`), which
 *   sorts in time order and is answered as stored;
 * - JSON the client sent is `json` (its text kept verbatim: key order, and `storage_size_bytes` counted on the
 *   same text), read with the JSON operators (`->`, `#>`); the feedback payload, stored as SQLite JSONB there, is `jsonb`.
 * @module
 */
import type { Migration } from './migrations.js';
import { LATENCY_BOUNDS } from '../stats/latency-histogram.js';

/** The latency histogram's bounds as a PostgreSQL array literal. */
const BOUNDS = `{${LATENCY_BOUNDS.join(',')}}`;
import { PG_UNCOUNTED } from './rollup-edge-migrations.js';
import { PG_FEEDBACK_ROLLUPS } from './feedback-rollup-migrations.js';
import { PG_QUEUES } from './queue-migrations.js';
import { PG_ROLLUP_CLAIMS } from './rollup-claim-migrations.js';
import { PG_EXPR_PARITY, PG_FEEDBACK_STATS, PG_GET_KEYS_ONCE, PG_WEAVE_NUMBERS, PG_WEFT_FUNCTIONS } from './pg-sql-functions.js';

/** Every PostgreSQL migration, in order. Shipped migrations are never edited; add new ones at the end. */
export const PG_MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'create_schema',
    sql: `
      CREATE TABLE calls (
        project_id   text COLLATE "C" NOT NULL,
        id           text COLLATE "C" NOT NULL,
        op_name      text COLLATE "C",
        display_name text COLLATE "C",
        trace_id     text COLLATE "C",
        parent_id    text COLLATE "C",
        thread_id    text COLLATE "C",
        turn_id      text COLLATE "C",
        started_at   text COLLATE "C",
        ended_at     text COLLATE "C",
        attributes   json,
        inputs       json,
        output       json,
        exception    json,
        summary      json,
        otel_dump    json,
        svc_user_id  text COLLATE "C",
        svc_run_id   text COLLATE "C",
        svc_run_step bigint,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX calls_started_at ON calls (project_id, started_at, id);
      CREATE INDEX calls_trace ON calls (project_id, trace_id, started_at, id);
      CREATE INDEX calls_parent ON calls (project_id, parent_id, started_at, id);
      CREATE INDEX calls_op_name ON calls (project_id, op_name, started_at, id);
      CREATE TABLE call_refs (
        project_id text COLLATE "C" NOT NULL,
        call_id    text COLLATE "C" NOT NULL,
        kind       text COLLATE "C" NOT NULL CHECK (kind IN ('input', 'output')),
        ref        text COLLATE "C" NOT NULL,
        PRIMARY KEY (project_id, call_id, kind, ref)
      );
      CREATE INDEX call_refs_ref ON call_refs (project_id, kind, ref);
      CREATE TABLE call_renames (
        project_id   text COLLATE "C" NOT NULL,
        call_id      text COLLATE "C" NOT NULL,
        display_name text COLLATE "C",
        PRIMARY KEY (project_id, call_id)
      );
      CREATE TABLE users (
        id       text COLLATE "C" PRIMARY KEY,
        username text COLLATE "C" NOT NULL
      );
      CREATE TABLE feedback (
        seq            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id     text COLLATE "C" NOT NULL,
        id             text COLLATE "C" NOT NULL,
        feedback_type  text COLLATE "C" NOT NULL,
        svc_ref        text COLLATE "C" NOT NULL,
        call_id        text COLLATE "C",
        payload        jsonb NOT NULL,
        annotation_ref text COLLATE "C",
        call_ref       text COLLATE "C",
        creator        text COLLATE "C",
        queue_id       text COLLATE "C",
        runnable_ref   text COLLATE "C",
        trigger_ref    text COLLATE "C",
        svc_user_id    text COLLATE "C",
        created_at     text COLLATE "C" NOT NULL,
        UNIQUE (project_id, id)
      );
      CREATE INDEX feedback_created ON feedback (project_id, created_at);
      CREATE INDEX feedback_type_created ON feedback (project_id, feedback_type, created_at);
      CREATE INDEX feedback_call ON feedback (project_id, call_id);
      CREATE TABLE tables (
        project_id text COLLATE "C" NOT NULL,
        digest     text COLLATE "C" NOT NULL,
        row_count  bigint NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        PRIMARY KEY (project_id, digest)
      );
      CREATE TABLE table_rows (
        project_id   text COLLATE "C" NOT NULL,
        table_digest text COLLATE "C" NOT NULL,
        row_index    bigint NOT NULL,
        row_digest   text COLLATE "C" NOT NULL,
        val          json NOT NULL,
        PRIMARY KEY (project_id, table_digest, row_index)
      );
      CREATE INDEX table_rows_digest ON table_rows (project_id, table_digest, row_digest);
      CREATE TABLE trajectories (
        model_id      text COLLATE "C" NOT NULL,
        split         text COLLATE "C" NOT NULL CHECK (split IN ('train', 'val', 'test')),
        group_id      text COLLATE "C" NOT NULL,
        position      bigint NOT NULL,
        reward        double precision NOT NULL,
        message_count bigint NOT NULL,
        metrics       json NOT NULL,
        trajectory    json NOT NULL,
        logged_at     text COLLATE "C" NOT NULL,
        PRIMARY KEY (model_id, group_id, position)
      );
      CREATE INDEX trajectories_split ON trajectories (model_id, split);
      CREATE TABLE training_jobs (
        id                  text COLLATE "C" PRIMARY KEY,
        model_id            text COLLATE "C" NOT NULL,
        status              text COLLATE "C" NOT NULL,
        experimental_config json,
        trajectory_groups   json NOT NULL,
        group_count         bigint NOT NULL,
        trajectory_count    bigint NOT NULL,
        created_at          text COLLATE "C" NOT NULL
      );
      CREATE INDEX training_jobs_model ON training_jobs (model_id, created_at);
      CREATE TABLE objects (
        seq               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id        text COLLATE "C" NOT NULL,
        object_id         text COLLATE "C" NOT NULL,
        digest            text COLLATE "C" NOT NULL,
        version_index     bigint NOT NULL,
        kind              text COLLATE "C" NOT NULL,
        base_object_class text COLLATE "C",
        leaf_object_class text COLLATE "C",
        val               json NOT NULL,
        created_at        text COLLATE "C" NOT NULL,
        wb_user_id        text COLLATE "C",
        UNIQUE (project_id, object_id, digest),
        UNIQUE (project_id, object_id, version_index)
      );
      CREATE INDEX objects_created ON objects (project_id, created_at);
      CREATE TABLE files (
        project_id text COLLATE "C" NOT NULL,
        digest     text COLLATE "C" NOT NULL,
        size_bytes bigint NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        content    bytea NOT NULL,
        UNIQUE (project_id, digest)
      );
    `,
  },
  PG_FEEDBACK_STATS,
  PG_WEFT_FUNCTIONS,
  PG_EXPR_PARITY,
  PG_GET_KEYS_ONCE,
  {
    // The twin of SQLite's migration 8: the end's summary as sent beside the rolled-up one, and the traces holding span calls.
    id: 6,
    name: 'server_rollup',
    sql: `
      ALTER TABLE calls ADD COLUMN sent_summary json;
      CREATE INDEX calls_otel ON calls (project_id, trace_id) WHERE otel_dump IS NOT NULL;
    `,
  },
  PG_WEAVE_NUMBERS,
  {
    // The twin of SQLite's migration 9: the run step when a call ended (svc_run_step_end).
    id: 8,
    name: 'run_step_end',
    sql: 'ALTER TABLE calls ADD COLUMN svc_run_step_end bigint;',
  },
  {
    // The twin of SQLite's migration 10: monitors and their progress.
    id: 9,
    name: 'monitors',
    sql: `
      CREATE TABLE monitors (
        project_id      text COLLATE "C" NOT NULL,
        id              text COLLATE "C" NOT NULL,
        op_name         text COLLATE "C" NOT NULL,
        scorer          text COLLATE "C" NOT NULL,
        sample_rate     float8 NOT NULL,
        options         text NOT NULL,
        created_at      text COLLATE "C" NOT NULL,
        cursor_ended_at text COLLATE "C",
        cursor_call_id  text COLLATE "C",
        PRIMARY KEY (project_id, id)
      );
    `,
  },
  {
    // Issue 40: the traces list (roots only, newest first) reads the roots in its order, a Limit over this index (the
    // (project_id, parent_id, started_at, id) index cannot give started_at order for `parent_id IS NULL`, and the
    // started_at index reads ten calls a root); the overview's roots of a window read a range of it. Only roots are
    // in it: what it costs a write is one entry a trace.
    id: 10,
    name: 'calls_roots_newest_first',
    sql: 'CREATE INDEX calls_roots_desc ON calls (project_id, started_at DESC, id) WHERE parent_id IS NULL;',
  },
  {
    // The twin of SQLite's migration 11: the overview's hour rollups, the stale hours (all hours holding roots at first),
    // and weft_latency_bin, SQLite's function of the same name over the same bounds (stats/latency-histogram.ts).
    id: 11,
    name: 'call_rollups',
    sql: `
      CREATE TABLE call_rollups (
        project_id        text COLLATE "C" NOT NULL,
        hour              text COLLATE "C" NOT NULL,
        op_name           text COLLATE "C",
        model             text COLLATE "C",
        calls             bigint NOT NULL,
        errors            bigint NOT NULL,
        descendant_errors bigint NOT NULL,
        histogram         text NOT NULL,
        usage             text
      );
      CREATE INDEX call_rollups_hour ON call_rollups (project_id, hour);
      CREATE TABLE call_rollup_marks (
        project_id text COLLATE "C" NOT NULL,
        hour       text COLLATE "C" NOT NULL,
        PRIMARY KEY (project_id, hour)
      );
      CREATE TABLE call_rollup_open (
        project_id text COLLATE "C" NOT NULL,
        id         text COLLATE "C" NOT NULL,
        hour       text COLLATE "C" NOT NULL,
        PRIMARY KEY (project_id, id)
      );
      CREATE INDEX call_rollup_open_hour ON call_rollup_open (project_id, hour);
      CREATE FUNCTION weft_latency_bin(x bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
        SELECT CASE WHEN x IS NULL THEN NULL WHEN x < 0 THEN -width_bucket(-x, '${BOUNDS}'::bigint[])
          ELSE width_bucket(x, '${BOUNDS}'::bigint[]) END $f$;
      INSERT INTO call_rollup_marks (project_id, hour)
        SELECT DISTINCT project_id, substr(started_at, 1, 13) FROM calls WHERE parent_id IS NULL AND started_at IS NOT NULL
        ON CONFLICT DO NOTHING;
    `,
  },
  PG_UNCOUNTED,
  PG_FEEDBACK_ROLLUPS,
  PG_QUEUES,
  PG_ROLLUP_CLAIMS,
];
