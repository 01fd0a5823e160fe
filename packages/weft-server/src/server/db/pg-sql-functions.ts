/**
 * The PostgreSQL migrations that create the `weft_*` SQL functions (pg-migrations.ts lists them in order with the
 * table migrations): SQLite's value semantics over jsonb for `$expr`, filters and sorts (calls/query/pg-query-sql.ts, the
 * PostgreSQL leaves of calls/query/fields.ts), and the compensated sum of feedback stats. Shipped migrations are never
 * edited (their SQL keeps the indentation it had inside the list).
 * @module
 */
import type { Migration } from './migrations.js';
import { NUMERIC_TEXT_PATTERN } from './numeric-text.js';

export const PG_FEEDBACK_STATS: Migration = {
    // Feedback stats as the SQLite store computes them. SQLite's sum() adds floats with Kahan-Babuska-Neumaier
    // compensation: weft_kbn_sum takes the same steps (in the order rows reach it), so both stores answer the same
    // bits. The payload becomes `json` like the other client JSON: its text is kept verbatim (include_feedback answers
    // the keys in the client's order, as SQLite does) and a "\u0000" escape, which jsonb refuses, is stored.
    id: 2,
    name: 'feedback_stats',
    sql: `
      ALTER TABLE feedback ALTER COLUMN payload TYPE json USING payload::json;
      -- PL/pgSQL: about 3x faster per row than a SQL-language step, which an aggregate cannot inline.
      CREATE FUNCTION weft_kbn_step(state float8[], r float8) RETURNS float8[]
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
        DECLARE s float8 := state[1]; t float8 := s + r;
        BEGIN
          IF abs(s) > abs(r) THEN state[2] := state[2] + ((s - t) + r); ELSE state[2] := state[2] + ((r - t) + s); END IF;
          state[1] := t;
          RETURN state;
        END $$;
      CREATE FUNCTION weft_kbn_final(state float8[]) RETURNS float8
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT CASE WHEN state[2] = 'NaN'::float8 THEN state[1] ELSE state[1] + state[2] END $$;
      CREATE AGGREGATE weft_kbn_sum(float8) (SFUNC = weft_kbn_step, STYPE = float8[], FINALFUNC = weft_kbn_final, INITCOND = '{0,0}');
    `,
};

export const PG_WEFT_FUNCTIONS: Migration = {
    // SQL functions the calls query compiler (calls/query/pg-query-sql.ts) relies on: SQLite's value semantics over jsonb.
    // A JSON value read out of a column (json_extract in SQLite) is jsonb here, JSON null turned into SQL NULL;
    // SQLite orders NULL < numbers (booleans are 1/0) < text (objects and arrays are their JSON text), and so do these.
    id: 3,
    name: 'weft_functions',
    sql: String.raw`
      -- $contains case_insensitive: NFC, upper, lower (ICU: full Unicode case mapping), then ς→σ and ß→ss (sql-functions.ts foldCase)
      CREATE FUNCTION weft_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT replace(replace(lower(upper(normalize(t, NFC) COLLATE "und-x-icu")), 'ς', 'σ'), 'ß', 'ss') $f$;
      -- storage class: 0 NULL, 1 number (and boolean), 2 text (and object/array)
      CREATE FUNCTION weft_rank(v jsonb) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE WHEN v IS NULL OR jsonb_typeof(v) = 'null' THEN 0 WHEN jsonb_typeof(v) IN ('number', 'boolean') THEN 1 ELSE 2 END $f$;
      CREATE FUNCTION weft_num(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE jsonb_typeof(v) WHEN 'number' THEN (v #>> '{}')::numeric WHEN 'boolean' THEN (CASE WHEN v = 'true' THEN 1 ELSE 0 END) END $f$;
      CREATE FUNCTION weft_text(v jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE jsonb_typeof(v) WHEN 'null' THEN NULL WHEN 'string' THEN v #>> '{}' WHEN 'number' THEN v #>> '{}'
          WHEN 'boolean' THEN (CASE WHEN v = 'true' THEN '1' ELSE '0' END) ELSE v::text END $f$;
      -- SQLite's comparison of two values: NULL when either is NULL, else -1, 0, 1 (text by code point)
      CREATE FUNCTION weft_cmp(a jsonb, b jsonb) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE WHEN weft_rank(a) = 0 OR weft_rank(b) = 0 THEN NULL
          WHEN weft_rank(a) <> weft_rank(b) THEN sign(weft_rank(a) - weft_rank(b))::int
          WHEN weft_rank(a) = 1 THEN sign(weft_num(a) - weft_num(b))::int
          WHEN weft_text(a) COLLATE "C" < weft_text(b) COLLATE "C" THEN -1
          WHEN weft_text(a) COLLATE "C" > weft_text(b) COLLATE "C" THEN 1 ELSE 0 END $f$;
      -- SQLite's IS: NULL-safe equality
      CREATE FUNCTION weft_is(a jsonb, b jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE WHEN weft_rank(a) = 0 OR weft_rank(b) = 0 THEN weft_rank(a) = weft_rank(b) ELSE weft_cmp(a, b) = 0 END $f$;
      -- the leading number of a text, as SQLite's CAST(text AS REAL) reads it (0 when there is none)
      CREATE FUNCTION weft_text_num(t text) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT COALESCE(substring(t from '^\s*([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)')::numeric, 0) $f$;
      -- CAST(v AS REAL): NULL stays NULL
      CREATE FUNCTION weft_real(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE weft_rank(v) WHEN 0 THEN NULL WHEN 1 THEN weft_num(v) ELSE weft_text_num(weft_text(v)) END $f$;
      -- truthiness of a value in a boolean position (AND, OR, NOT): NULL stays NULL, else its number is non-zero
      CREATE FUNCTION weft_truthy(v jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT weft_real(v) <> 0 $f$;
      -- a boolean as SQLite's 1/0 (NULL stays NULL)
      CREATE FUNCTION weft_b2j(b boolean) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE WHEN b THEN '1'::jsonb WHEN NOT b THEN '0'::jsonb END $f$;
      -- $convert to bool (sql-functions.ts toBool): numbers non-zero; text 'true'/'1' in any case and spacing
      CREATE FUNCTION weft_bool(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE weft_rank(v) WHEN 0 THEN NULL WHEN 1 THEN weft_b2j(weft_num(v) <> 0)
          ELSE weft_b2j(lower(trim(weft_text(v))) IN ('true', '1')) END $f$;
      -- a JSON value read out of a json column as the SQLite store sees it (json_extract): JSON null is NULL, an object or
      -- array is its JSON text (verbatim, as sent), a string, number or boolean is itself
      CREATE FUNCTION weft_jv(j json) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE json_typeof(j) WHEN 'null' THEN NULL WHEN 'object' THEN to_jsonb(j::text) WHEN 'array' THEN to_jsonb(j::text) ELSE j::jsonb END $f$;
      -- a dotted path whose keys may contain dots (field-path.ts resolvePath): each object key tried whole first, then joined with the next segments
      CREATE FUNCTION weft_get(root json, segs text[]) RETURNS json LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
        DECLARE len int := COALESCE(array_length(segs, 1), 0); r json;
        BEGIN
          IF root IS NULL THEN RETURN NULL; END IF;
          IF len = 0 THEN RETURN root; END IF;
          IF json_typeof(root) = 'array' THEN
            IF segs[1] !~ '^\d{1,9}$' OR segs[1]::int >= json_array_length(root) THEN RETURN NULL; END IF;
            RETURN weft_get(root -> segs[1]::int, segs[2:len]);
          END IF;
          IF json_typeof(root) <> 'object' THEN RETURN NULL; END IF;
          FOR n IN 1..len LOOP
            IF (root -> array_to_string(segs[1:n], '.')) IS NOT NULL THEN
              r := weft_get(root -> array_to_string(segs[1:n], '.'), segs[n + 1:len]);
              IF r IS NOT NULL THEN RETURN r; END IF;
            END IF;
          END LOOP;
          RETURN NULL;
        END $f$;
    `,
};

export const PG_EXPR_PARITY: Migration = {
    // $expr parity (issue 16). PostgreSQL's JSON operators refuse a document holding a "\u0000" escape (its strings
    // become text, which cannot hold U+0000), so reading any path of such a column failed the whole query: paths are
    // read from weft_nonul(column), where each such escape is U+0001, the nearest character text can hold (it sorts
    // and compares as U+0000 does in SQLite, except against U+0001 itself). `$convert` to double gives SQLite's REAL,
    // whose text is "3.0", not "3". A path segment like "-1" is a key, never an index from the end (weft_get_exact).
    id: 4,
    name: 'weft_expr_parity',
    sql: String.raw`
      -- the JSON text with each \u0000 escape that is not itself escaped (an even number of backslashes before it) as \u0001
      CREATE FUNCTION weft_nonul(j json) RETURNS json LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE WHEN strpos(j::text, '\u0000') = 0 THEN j
          ELSE regexp_replace(j::text, '(?<!\\)((?:\\\\)*)\\u0000', '\1\\u0001', 'g')::json END $f$;
      -- a path read key by key, never joining segments (a quoted path): an array takes only a plain index (0, 12), not the
      -- signed or padded ones #> accepts (-1 counts from the end there), as SQLite's paths and weft_get read them
      CREATE FUNCTION weft_get_exact(root json, segs text[]) RETURNS json LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
        DECLARE s text;
        BEGIN
          FOREACH s IN ARRAY COALESCE(segs, '{}') LOOP
            IF root IS NULL THEN RETURN NULL; END IF;
            IF json_typeof(root) = 'array' THEN
              IF s !~ '^\d{1,9}$' THEN RETURN NULL; END IF;
              root := root -> s::int;
            ELSIF json_typeof(root) = 'object' THEN
              root := root -> s;
            ELSE
              RETURN NULL;
            END IF;
          END LOOP;
          RETURN root;
        END $f$;
      -- CAST(v AS REAL) as a value whose text is SQLite's text of that REAL (%!.15g: "3.0", "0.1", "2.5"); NULL stays NULL.
      -- Where 15 digits do not give the double back SQLite prints 17 (its own rounding); here the shortest exact form.
      -- Beyond a double's range the number is kept as is (SQLite: Inf).
      CREATE FUNCTION weft_dbl(v jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
        DECLARE r numeric := weft_real(v); x float8; n numeric; t text;
        BEGIN
          IF r IS NULL THEN RETURN NULL; END IF;
          IF abs(r) >= 1e308 OR (r <> 0 AND abs(r) < 1e-307) THEN RETURN to_jsonb(r); END IF;
          x := r::float8;
          n := x::numeric; -- 15 significant digits
          IF n::float8 <> x THEN n := x::text::numeric; END IF;
          t := trim_scale(n)::text;
          IF strpos(t, '.') = 0 THEN t := t || '.0'; END IF;
          RETURN t::jsonb;
        END $f$;
    `,
};

export const PG_GET_KEYS_ONCE: Migration = {
    // weft_get parsed an object once per candidate key (PostgreSQL's json operators parse the text on each call): a
    // hostile 10-segment path over a 1.5 MB document took 0.55 s a row. It now reads the object's keys once and parses
    // again only into a key that exists (same answers).
    id: 5,
    name: 'weft_get_keys_once',
    sql: String.raw`
      CREATE OR REPLACE FUNCTION weft_get(root json, segs text[]) RETURNS json LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
        DECLARE len int := COALESCE(array_length(segs, 1), 0); r json; keys text[]; k text;
        BEGIN
          IF root IS NULL THEN RETURN NULL; END IF;
          IF len = 0 THEN RETURN root; END IF;
          IF json_typeof(root) = 'array' THEN
            IF segs[1] !~ '^\d{1,9}$' THEN RETURN NULL; END IF;
            r := root -> segs[1]::int;
            IF r IS NULL THEN RETURN NULL; END IF;
            RETURN weft_get(r, segs[2:len]);
          END IF;
          IF json_typeof(root) <> 'object' THEN RETURN NULL; END IF;
          keys := ARRAY(SELECT json_object_keys(root));
          FOR n IN 1..len LOOP
            k := array_to_string(segs[1:n], '.');
            IF k = ANY(keys) THEN
              r := weft_get(root -> k, segs[n + 1:len]);
              IF r IS NOT NULL THEN RETURN r; END IF;
            END IF;
          END LOOP;
          RETURN NULL;
        END $f$;
    `,
};

export const PG_WEAVE_NUMBERS: Migration = {
    // Weave parity (issue 26): text that is no number (db/numeric-text.ts) converts to null, not SQLite's 0, in
    // $convert to int / double and in the number key of mixed-type sorts (sql-functions.ts weft_numq).
    id: 7,
    name: 'weft_weave_numbers',
    sql: `
      -- the value when it is a number or numeric text, else NULL
      CREATE FUNCTION weft_numj(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT CASE WHEN weft_rank(v) = 2 AND weft_text(v) !~ '${NUMERIC_TEXT_PATTERN}' THEN NULL ELSE v END $f$;
      -- its number (booleans 1/0), else NULL
      CREATE FUNCTION weft_numq(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $f$ SELECT weft_real(weft_numj(v)) $f$;
    `,
};
