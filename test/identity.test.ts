import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyIdentityLoad } from '../db/identity-load.ts';
import { ensureCompany } from '../db/ingestion-runs.ts';
import { loadIdentity } from '../ingest/load-identity.ts';
import { get } from './helpers/http.ts';
import { SHARED_SEC, startTestService, type TestService } from './helpers/service.ts';

describe('identity on the real SEC mirror', () => {
  let svc: TestService;
  let key: string;
  before(async () => {
    svc = await startTestService();
    key = svc.keys.free;
  });
  after(() => svc.close());

  it('resolves AAPL to CIK 0000320193 on the light route, exchange not populated', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=aapl`, key);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), ['as_of', 'cik', 'exchange', 'ticker']);
    assert.equal(r.body.cik, '0000320193');
    assert.equal(r.body.ticker, 'AAPL');
    assert.equal(r.body.exchange, null);
    assert.match(r.body.as_of, /^\d{4}-\d{2}-\d{2}$/);
  });

  it('resolves BRK.B to Berkshire Hathaway with the full identity record and its exchange', async () => {
    const r = await get(`${svc.baseUrl}/v1/identity/resolve?ticker=BRK.B`, key);
    assert.equal(r.status, 200);
    const id = r.body.data.identity;
    assert.equal(id.cik, '0001067983');
    assert.equal(id.ticker, 'BRK-B');
    assert.equal(id.exchange, 'NYSE');
    assert.equal(id.is_active, true);
    assert.equal(id.active_to, null);
    assert.match(id.company_id, /^[0-9a-f-]{36}$/);
    assert.equal(id.confidence_score, 1);
    assert.match(id.source_filing_accession, /^\d{10}-\d{2}-\d{6}$/);
    assert.deepEqual(Object.keys(id).sort(), [
      'active_from', 'active_to', 'cik', 'company_id', 'company_name', 'confidence_score', 'exchange', 'id',
      'is_active', 'source', 'source_filing_accession', 'source_loaded_at', 'ticker',
    ]);
  });

  it('leaves company_id null for a mapping whose filer is not in the company reference', async () => {
    const r = await get(`${svc.baseUrl}/v1/identity/resolve?ticker=APLE`, key);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.identity.company_id, null);
    assert.equal(r.body.data.identity.cik, '0001418121');
  });

  it('gives a ticker of an issuer whose company row ingestion created (Walmart: company facts, no submissions file) the company_id its company routes use', async () => {
    const [company] = await svc.sql<{ source: string }[]>`SELECT source FROM companies WHERE cik = '0000104169'`;
    assert.equal(company!.source, 'sec_companyfacts', 'Walmart stands for the issuers identity loads before their company row exists');
    const r = await get(`${svc.baseUrl}/v1/identity/resolve?ticker=WMT`, key);
    assert.equal(r.status, 200);
    const profile = await get(`${svc.baseUrl}/v1/edgar/companies/104169`, key);
    assert.match(profile.body.data.company_id, /^[0-9a-f-]{36}$/);
    assert.equal(r.body.data.identity.company_id, profile.body.data.company_id);
  });

  it('leaves no mapping of a company in the reference without its company_id, over the whole corpus', async () => {
    const [row] = await svc.sql<{ linked: number; unlinked: number }[]>`
      SELECT count(*) FILTER (WHERE im.company_id = c.company_id)::int AS linked,
             count(*) FILTER (WHERE im.company_id IS DISTINCT FROM c.company_id)::int AS unlinked
      FROM identity_mappings im JOIN companies c ON c.cik = im.cik`;
    assert.equal(row!.unlinked, 0);
    assert.ok(row!.linked > 40, `${row!.linked} mappings linked`);
  });

  it('links a mapping stored without company_id when ingestion meets its existing company row again', async () => {
    const [before] = await svc.sql<{ company_id: string }[]>`SELECT company_id FROM companies WHERE cik = '0000104169'`;
    await svc.sql`UPDATE identity_mappings SET company_id = NULL WHERE cik = '0000104169'`;
    await ensureCompany(svc.sql, '0000104169', 'Walmart Inc.', '0131', new Date());
    const rows = await svc.sql<{ company_id: string | null }[]>`SELECT company_id FROM identity_mappings WHERE cik = '0000104169'`;
    assert.ok(rows.length > 0);
    for (const m of rows) assert.equal(m.company_id, before!.company_id);
  });

  it('answers an as_of_date before the first load with NOT_FOUND naming the first observation', async () => {
    const r = await get(`${svc.baseUrl}/v1/identity/resolve?ticker=AAPL&as_of_date=2001-01-01`, key);
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'NOT_FOUND');
    assert.match(r.body.error.details.first_observed, /^\d{4}-\d{2}-\d{2}$/);
  });

  it('answers an unknown ticker 404 with a hint to search', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies:resolve?ticker=ZZZZZQ`, key);
    assert.equal(r.status, 404);
    assert.match(r.body.error.message, /identity\/search/);
  });

  it('searches by name with the issuer in the company reference ranked first', async () => {
    const r = await get(`${svc.baseUrl}/v1/identity/search?query=apple`, key);
    assert.equal(r.status, 200);
    assert.equal(r.body.items[0].ticker, 'AAPL');
    assert.ok(r.body.items.some((i: { ticker: string }) => i.ticker === 'APLE'));
  });

  it('requires the search text under the name query; q is refused as an unknown parameter naming query', async () => {
    const r = await get(`${svc.baseUrl}/v1/identity/search?q=apple`, key);
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error.details.unknown_parameters, ['q']);
    assert.ok(r.body.error.details.accepted_parameters.includes('query'));
    const missing = await get(`${svc.baseUrl}/v1/identity/search`, key);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details.issues[0].path, 'query');
  });

  it('lists every mapping of an issuer by unpadded CIK, and every issuer of a ticker', async () => {
    const byCik = await get(`${svc.baseUrl}/v1/identity/companies/1067983`, key);
    assert.equal(byCik.status, 200);
    const tickers = byCik.body.data.map((m: { ticker: string }) => m.ticker).sort();
    assert.deepEqual(tickers, ['BRK-A', 'BRK-B']);
    const byTicker = await get(`${svc.baseUrl}/v1/identity/tickers/MSFT`, key);
    assert.deepEqual(byTicker.body.data.map((m: { cik: string }) => m.cik), ['0000789019']);
    const none = await get(`${svc.baseUrl}/v1/identity/tickers/NOPE`, key);
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, { data: [] });
  });

  it("serves Apple's profile from its submissions: SIC, fiscal year end, former names, addresses", async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/0000320193`, key);
    assert.equal(r.status, 200);
    const p = r.body.data;
    assert.equal(p.name, 'Apple Inc.');
    assert.equal(p.sic, '3571');
    assert.equal(p.sic_description, 'Electronic Computers');
    assert.equal(p.fiscal_year_end, '0926');
    assert.deepEqual(p.tickers, ['AAPL']);
    assert.deepEqual(p.exchanges, ['Nasdaq']);
    assert.ok(p.former_names.some((f: { name: string; to: string }) => f.name === 'APPLE COMPUTER INC' && f.to === '2007-01-04'));
    assert.equal(p.addresses.business.city, 'CUPERTINO');
  });

  it('answers a profile for a CIK without submissions 404', async () => {
    const r = await get(`${svc.baseUrl}/v1/edgar/companies/1`, key);
    assert.equal(r.status, 404);
    assert.equal(r.body.error.details.cik, '0000000001');
  });

  it('changes nothing when the same source is loaded again', async () => {
    const [before] = await svc.sql`SELECT count(*)::int AS n, max(source_loaded_at) AS t FROM identity_mappings`;
    const s = await loadIdentity(svc.sql, { ...svc.running.services.config, secSource: SHARED_SEC });
    assert.equal(s.mappings_opened, 0);
    assert.equal(s.mappings_closed, 0);
    const [afterRow] = await svc.sql`SELECT count(*)::int AS n FROM identity_mappings`;
    assert.equal(afterRow!.n, before!.n);
  });

  it('closes a mapping a later load no longer sees, so as-of reads before and after differ', async () => {
    const live = await svc.sql<{ cik: string; ticker: string; company_name: string; exchange: string | null; source: string; source_filing_accession: string | null; confidence_score: string }[]>`
      SELECT cik, ticker, company_name, exchange, source, source_filing_accession, confidence_score
      FROM identity_mappings WHERE is_active AND ticker <> 'TSLA'`;
    const counts = await applyIdentityLoad(
      svc.sql,
      { sourceRoot: 'test', startedAt: '2031-05-01T00:00:00Z', loadDate: '2031-05-01', loadedAt: '2031-05-01T00:00:00Z' },
      [],
      live,
    );
    assert.deepEqual(counts, { opened: 0, closed: 1 });
    const before = await get(`${svc.baseUrl}/v1/identity/resolve?ticker=TSLA&as_of_date=2031-04-30`, key);
    assert.equal(before.status, 200);
    assert.equal(before.body.data.identity.cik, '0001318605');
    const afterEnd = await get(`${svc.baseUrl}/v1/identity/resolve?ticker=TSLA&as_of_date=2031-05-01`, key);
    assert.equal(afterEnd.status, 404);
    const history = await get(`${svc.baseUrl}/v1/identity/tickers/TSLA`, key);
    assert.equal(history.body.data[0].is_active, false);
    assert.equal(history.body.data[0].active_to, '2031-05-01');
  });
});
