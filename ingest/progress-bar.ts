import type { CompanyResult } from './ingest-company.ts';
import type { IngestProgress, IngestSummary } from './run-ingestion.ts';

const WIDTH = 28;

/** One progress line: bar, companies, facts/s, ETA and the company just finished. */
export function progressLine(p: IngestProgress): string {
  const finished = p.companies_done + p.companies_failed;
  const share = p.companies_total === 0 ? 1 : finished / p.companies_total;
  const filled = Math.round(share * WIDTH);
  const eta = p.eta_s === null ? '--' : `${Math.ceil(p.eta_s)}s`;
  const failed = p.companies_failed > 0 ? `, ${p.companies_failed} failed` : '';
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${finished}/${p.companies_total} companies${failed}` +
    `  ${Math.round(p.facts_per_s).toLocaleString('en-US')} facts/s  ETA ${eta}` +
    (p.archive ? `  archives ${mb(p.archive.bytes_done)}/${mb(p.archive.bytes_total)} MB at ${mb(p.archive.bytes_per_s)} MB/s, ETA ${p.archive.eta_s === null ? '--' : `${Math.ceil(p.archive.eta_s)}s`}` : '') +
    (p.current ? `  ${p.current}` : '')
  );
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/**
 * Renders progress to a stream: redrawn in place on a terminal, one line per company otherwise
 * (logs and CI keep every line).
 */
export function progressPrinter(stream: NodeJS.WriteStream): { update(p: IngestProgress): void; done(): void } {
  let drawn = false;
  return {
    update(p) {
      if (stream.isTTY) {
        stream.write(`\r${progressLine(p).padEnd(stream.columns ? stream.columns - 1 : 100)}`);
        drawn = true;
      } else {
        stream.write(`${progressLine(p)}\n`);
      }
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}

export function summaryRows(companies: readonly CompanyResult[]): Record<string, string | number>[] {
  return companies.map((c) => ({
    cik: c.cik,
    company: (c.name ?? '').slice(0, 32),
    status: c.status,
    facts: c.facts,
    filings: c.filings,
    'versions added': c.versions_added,
    restatements: c.restatements_added,
    packages: c.packages,
    segments: c.segments,
    disclosures: c.disclosures,
    ms: Math.round(c.ms),
  }));
}

export function summaryLine(s: IngestSummary): string {
  const c = s.counters;
  const mb = c.bytes_read / 1e6;
  return (
    `run ${s.run_id} ${s.status}: ${c.companies_done} companies (${c.companies_skipped} unchanged, ${c.companies_without_data} without usable data, ${c.companies_failed} failed), ` +
    `${c.facts_read.toLocaleString('en-US')} facts, ${c.versions_added.toLocaleString('en-US')} statement versions added ` +
    `(${c.restatements_added} restatements) in ${s.elapsed_s.toFixed(1)}s` +
    (mb > 0 ? `, ${(mb / s.elapsed_s).toFixed(1)} MB/s of company facts` : '')
  );
}
