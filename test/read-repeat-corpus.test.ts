import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mixReads, toolCallBody } from '../bench/lib/mix-requests.ts';
import { get, post } from './helpers/http.ts';
import { startTestService, type TestService } from './helpers/service.ts';

/**
 * What the reads keep per stored version (each version's figures as a panel reads them, its
 * additive flows and a year's coherence marks, an as-of trust score, prepared statement payloads)
 * never changes an answer: over the whole ../shared/sec corpus, a random mix of statements, metric
 * series, three-company panels and as-of reads (the bench's `mix`, its own seed) answers byte for
 * byte the same the first time, when nothing is kept yet, and again, from what the first asks kept,
 * on both surfaces.
 */

let svc: TestService;
before(async () => {
  svc = await startTestService();
});
after(async () => {
  await svc?.close();
});

/** an error carries its request's trace id, the one part of an answer that differs between two asks */
const untraced = (text: string) => text.replace(/(\\?"trace_id\\?":\\?")[0-9a-f]{32}/g, '$1-');

describe('reads from what is kept per version', () => {
  it('answer a random mix of reads the same on a first and a second ask, over HTTP and as tool calls', async () => {
    const reads = mixReads(100, 4_242);
    const ask = async () => {
      const out: string[] = [];
      for (const r of reads) {
        const http = await get(`${svc.baseUrl}${r.path}`, svc.keys.enterprise);
        out.push(`${http.status} ${untraced(http.text)}`);
        const mcp = await post(`${svc.baseUrl}/mcp`, toolCallBody(r), svc.keys.enterprise, { 'content-type': 'application/json' });
        out.push(`${mcp.status} ${untraced(mcp.text)}`);
      }
      return out;
    };
    const first = await ask();
    const second = await ask();
    const families = new Set(reads.map((r) => r.family));
    assert.deepEqual([...families].sort(), ['as_of', 'panel', 'series', 'statement']);
    assert.ok(first.filter((a) => a.startsWith('200 ')).length > reads.length, 'most reads answer 200');
    for (let i = 0; i < first.length; i++) assert.equal(second[i], first[i], `read ${i} (${reads[Math.floor(i / 2)]!.path}) answered differently the second time`);
  });
});
