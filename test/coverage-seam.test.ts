import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { ServiceError } from '../domain/service-error.ts';
import type { AuthContext } from '../api/auth.ts';
import type { CoverageGate } from '../api/coverage-gate.ts';
import { defineTool } from '../api/define-tool.ts';
import { Cik } from '../api/schemas.ts';
import { get, post } from './helpers/http.ts';
import { listenWithFixtures, startTestService, type TestService } from './helpers/service.ts';

/**
 * Any gate plugs into the seam: this one records what reaches it and refuses one CIK the way the
 * slot gate does, so both surfaces can be seen to consult the gate before the handler runs.
 */
class RecordingGate implements CoverageGate {
  readonly seen: { plan: string; ciks: string[] }[] = [];
  async admit(auth: AuthContext, ciks: string[]): Promise<void> {
    this.seen.push({ plan: auth.plan, ciks });
    if (ciks.includes('0000000042')) {
      throw new ServiceError('COVERAGE_SELECTION_FULL', 'all 25 slots are held', { refused_ciks: ['0000000042'] });
    }
  }
  async visible(): Promise<string[] | null> {
    return null;
  }
}

let handlerRuns = 0;
const companyTool = defineTool({
  name: 'test.company_tool',
  title: 'Company-keyed fixture tool',
  description: 'Test fixture: a tool keyed by a CIK, to pin that tool calls pass the coverage gate too.',
  http: { method: 'GET', path: '/v1/test/company/{cik}' },
  tool: true,
  plan: 'free',
  input: z.object({ cik: Cik }),
  output: z.object({ cik: z.string() }),
  companies: (input) => [input.cik],
  handler: async (_ctx, input) => {
    handlerRuns += 1;
    return { cik: input.cik };
  },
});

describe('the coverage seam', () => {
  let svc: TestService;
  let server: { baseUrl: string; close(): Promise<void> };
  let base: string;
  const gate = new RecordingGate();

  before(async () => {
    svc = await startTestService();
    server = await listenWithFixtures({ ...svc.running.services, coverage: gate }, [companyTool]);
    base = server.baseUrl;
  });
  after(async () => {
    await server.close();
    await svc.close();
  });

  it('passes the padded CIK of a company-keyed HTTP route to the gate with the caller plan', async () => {
    gate.seen.length = 0;
    const r = await get(`${base}/v1/edgar/companies/320193`, svc.keys.free);
    assert.equal(r.status, 200);
    assert.deepEqual(gate.seen, [{ plan: 'free', ciks: ['0000320193'] }]);
  });

  it('does not consult the gate to resolve a ticker', async () => {
    gate.seen.length = 0;
    const r = await get(`${base}/v1/edgar/companies:resolve?ticker=AAPL`, svc.keys.free);
    assert.equal(r.status, 200);
    assert.deepEqual(gate.seen, []);
  });

  it('answers a refusal of the gate with its error over HTTP, before the handler runs', async () => {
    const runs = handlerRuns;
    const r = await get(`${base}/v1/test/company/42`, svc.keys.free);
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, 'COVERAGE_SELECTION_FULL');
    assert.deepEqual(r.body.error.details.refused_ciks, ['0000000042']);
    assert.equal(handlerRuns, runs);
  });

  it('applies the same gate to tools/call and maps its refusal to an isError result', async () => {
    gate.seen.length = 0;
    const ok = await post(
      `${base}/mcp`,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_company_tool', arguments: { cik: '789019' } } }),
      svc.keys.growth,
    );
    assert.equal(ok.body.result.isError, false);
    assert.deepEqual(gate.seen, [{ plan: 'growth', ciks: ['0000789019'] }]);
    const refused = await post(
      `${base}/mcp`,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_company_tool', arguments: { cik: '42' } } }),
      svc.keys.free,
    );
    assert.equal(refused.status, 200);
    assert.equal(refused.body.result.isError, true);
    const payload = JSON.parse(refused.body.result.content[0].text);
    assert.equal(payload.http_code, 'COVERAGE_SELECTION_FULL');
    assert.equal(payload.http_status, 403);
    assert.equal(payload.retryable, false);
  });
});
