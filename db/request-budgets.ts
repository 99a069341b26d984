import type { Db } from './client.ts';

/**
 * Counts one request against a bucket's window, in the shared table, unless the window is spent.
 * One statement, so concurrent instances never both take the last unit: the conflict update only
 * happens while `used < limit`. Returns the count after this request, or null when refused.
 */
export async function takeBudgetUnit(sql: Db, bucket: string, windowStart: Date, limit: number): Promise<number | null> {
  const [row] = await sql<{ used: number }[]>`
    INSERT INTO request_budgets AS b (bucket, window_start, used)
    VALUES (${bucket}, ${windowStart.toISOString()}::timestamptz, 1)
    ON CONFLICT (bucket, window_start) DO UPDATE SET used = b.used + 1 WHERE b.used < ${limit}
    RETURNING used`;
  return row ? row.used : null;
}

/** What a bucket has used in a window, without counting (HEAD requests read it). */
export async function budgetUsed(sql: Db, bucket: string, windowStart: Date): Promise<number> {
  const [row] = await sql<{ used: number }[]>`
    SELECT used FROM request_budgets WHERE bucket = ${bucket} AND window_start = ${windowStart.toISOString()}::timestamptz`;
  return row?.used ?? 0;
}

/** Windows that closed before `before`: nothing reads them again. */
export async function forgetBudgetWindows(sql: Db, before: Date): Promise<number> {
  const r = await sql`DELETE FROM request_budgets WHERE window_start < ${before.toISOString()}::timestamptz`;
  return r.count;
}
