// Reads what the benchmark server stored, straight from its SQLite file (read-only), to check nothing was dropped.
import Database from 'better-sqlite3';

function withDb<T>(dbPath: string, read: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Number of complete calls (start and end both stored) of a project, optionally of one op. */
export function countCompleteCalls(dbPath: string, projectId: string, opName?: string): number {
  const where = 'project_id = ? AND started_at IS NOT NULL AND ended_at IS NOT NULL';
  return withDb(dbPath, (db) => {
    const row = opName
      ? db.prepare(`SELECT count(*) AS n FROM calls WHERE ${where} AND op_name = ?`).get(projectId, opName)
      : db.prepare(`SELECT count(*) AS n FROM calls WHERE ${where}`).get(projectId);
    return (row as { n: number }).n;
  });
}

/** The stored `output` JSON text of one call of an op, or undefined. */
export function sampleOutput(dbPath: string, projectId: string, opName: string): string | undefined {
  return withDb(dbPath, (db) => {
    const row = db.prepare('SELECT output FROM calls WHERE project_id = ? AND op_name = ? AND ended_at IS NOT NULL LIMIT 1').get(projectId, opName);
    return (row as { output: string | null } | undefined)?.output ?? undefined;
  });
}
