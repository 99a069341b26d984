/** Helpers of the modeling suites: build a snapshot through the real route and wait for its job. */
import { setTimeout as sleep } from 'node:timers/promises';
import { post, type Reply } from './http.ts';

export interface BuildBody {
  ciks: string[];
  as_of_date: string;
  statement_types?: string[];
  metrics_bundle?: 'all' | 'tier1';
  page?: number;
  page_size?: number;
}

export function snapshotBody(b: BuildBody): string {
  return JSON.stringify({ statement_types: ['INCOME_STATEMENT', 'BALANCE_SHEET', 'CASH_FLOW_STATEMENT'], metrics_bundle: 'all', ...b });
}

/** POSTs the build request until it answers 200 (the worker finished); every status seen is returned too. */
export async function buildSnapshot(baseUrl: string, key: string, b: BuildBody, timeoutMs = 120_000): Promise<{ reply: Reply; statuses: number[] }> {
  const statuses: number[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const reply = await post(`${baseUrl}/v1/modeling/universe/pit-snapshot`, snapshotBody(b), key);
    statuses.push(reply.status);
    if (reply.status !== 202) return { reply, statuses };
    if (Date.now() > until) throw new Error(`snapshot still computing after ${timeoutMs} ms`);
    await sleep(150);
  }
}
