import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SHARED_SEC } from './shared-data.ts';

/** What the stand-in answers for one path instead of a mirror file: a body, a status, or a function of the request. */
export type StandInAnswer = string | Buffer | { status: number; body?: string; headers?: Record<string, string> } | ((req: IncomingMessage, res: ServerResponse) => void);

export interface SecStandIn {
  /** http://127.0.0.1:<port>, for SEC_ORIGINS */
  origin: string;
  /** SEC_ORIGINS mapping both SEC hosts to the stand-in */
  origins: Record<string, string>;
  /** arrival times (performance.now(), ms), paths and User-Agents of every request, in order */
  hits: { at: number; path: string; userAgent: string }[];
  /** answers for paths (`/Archives/edgar/xbrlrss.all.xml`), replacing mirror files; set and changed during a test */
  answers: Map<string, StandInAnswer>;
  close(): Promise<void>;
}

/** data.sec.gov serves the JSON APIs; everything else is www.sec.gov (both hosts map to this one origin). */
function hostOf(urlPath: string): string {
  return urlPath.startsWith('/api/') || urlPath.startsWith('/submissions/') ? 'data.sec.gov' : 'www.sec.gov';
}

/**
 * A stand-in for SEC's sites on loopback: mirror files from ../shared/sec (path = host + URL path),
 * SEC's `index.json` of an Archives folder made from the mirror's folder, and the answers a test
 * sets (a feed, a daily index, a changed companyfacts file, a 503). Every request is counted with
 * its arrival time, so a test can measure the request rate as SEC's servers would.
 */
export async function startSecStandIn(root: string = SHARED_SEC): Promise<SecStandIn> {
  const hits: SecStandIn['hits'] = [];
  const answers = new Map<string, StandInAnswer>();
  const server = createServer((req, res) => {
    const urlPath = (req.url ?? '/').split('?')[0]!;
    hits.push({ at: performance.now(), path: urlPath, userAgent: req.headers['user-agent'] ?? '' });
    void answer(req, res, urlPath).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse, urlPath: string): Promise<void> {
    const set = answers.get(urlPath);
    if (typeof set === 'function') return set(req, res);
    if (typeof set === 'string' || Buffer.isBuffer(set)) {
      res.writeHead(200).end(set);
      return;
    }
    if (set) {
      res.writeHead(set.status, set.headers ?? {}).end(set.body ?? '');
      return;
    }
    const decoded = decodeURIComponent(urlPath);
    if (decoded.split('/').includes('..')) {
      res.writeHead(400).end();
      return;
    }
    const file = path.join(root, hostOf(decoded), decoded);
    if (decoded.endsWith('/index.json')) {
      const dir = path.dirname(file);
      const names = await readdir(dir).catch(() => null);
      if (!names) {
        res.writeHead(404).end();
        return;
      }
      const item = names.map((name) => ({ name, type: 'file' }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ directory: { name: decoded, item } }));
      return;
    }
    const s = await stat(file).catch(() => null);
    if (!s || !s.isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200).end(await readFile(file));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    origins: { 'www.sec.gov': origin, 'data.sec.gov': origin },
    hits,
    answers,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The most arrivals inside any one-second window (each window starting at an arrival). */
export function peakPerSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[j]! <= sorted[i]! - 1000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

/** One RSS item of SEC's XBRL feed. */
export function feedItem(f: { cik: string; name: string; form: string; accession: string; acceptedEastern: string; period?: string; filed?: string }): string {
  return `<item><title>${f.name} (${f.cik}) (Filer)</title><description>${f.form}</description>
<edgar:xbrlFiling xmlns:edgar="https://www.sec.gov/Archives/edgar">
<edgar:companyName>${f.name}</edgar:companyName><edgar:formType>${f.form}</edgar:formType>
<edgar:filingDate>${f.filed ?? ''}</edgar:filingDate><edgar:cikNumber>${f.cik}</edgar:cikNumber>
<edgar:accessionNumber>${f.accession}</edgar:accessionNumber><edgar:acceptanceDatetime>${f.acceptedEastern}</edgar:acceptanceDatetime>
<edgar:period>${f.period ?? ''}</edgar:period><edgar:fiscalYearEnd>0630</edgar:fiscalYearEnd>
</edgar:xbrlFiling></item>`;
}

/** SEC's XBRL RSS feed around some items. */
export function feedXml(items: readonly string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:edgar="https://www.sec.gov/Archives/edgar"><channel><title>All XBRL Data Submitted to the SEC</title>
${items.join('\n')}
</channel></rss>`;
}

/** SEC's daily index (`master.YYYYMMDD.idx`) with its header and one line a filing. */
export function dailyIndexText(rows: readonly { cik: string; name: string; form: string; date: string; accession: string }[]): string {
  const header = `Description:           Master Index of EDGAR Dissemination Feed
Last Data Received:    today
Comments:              webmaster@sec.gov
Anonymous FTP:         ftp://ftp.sec.gov/edgar/

CIK|Company Name|Form Type|Date Filed|Filename
--------------------------------------------------------------------------------
`;
  return header + rows.map((r) => `${Number(r.cik)}|${r.name}|${r.form}|${r.date.replace(/-/g, '')}|edgar/data/${Number(r.cik)}/${r.accession}.txt`).join('\n') + '\n';
}

/**
 * A company's companyfacts and submissions as SEC would show them after an amendment of its latest
 * periodic filing: every fact of `base` again under `accession` (form `<base form>/A`, filed
 * `filed`), with net income of the latest period raised by 100 million (a restatement). Submissions
 * is null for a company the mirror has none of.
 */
export async function amendedCompany(root: string, cik: string, accession: string, filed: string, acceptedIso: string): Promise<{ facts: string; submissions: string | null; base: string; form: string; fy: number; fp: string; restated_net_income: string }> {
  const facts = JSON.parse(await readFile(path.join(root, 'data.sec.gov/api/xbrl/companyfacts', `CIK${cik}.json`), 'utf8'));
  type Fact = { end: string; val: number; accn: string; form: string; filed: string; fy: number; fp: string; frame?: string };
  let base: Fact | null = null;
  for (const concepts of Object.values(facts.facts) as Record<string, { units: Record<string, Fact[]> }>[]) {
    for (const c of Object.values(concepts)) for (const list of Object.values(c.units)) for (const f of list) {
      if (/^(10-K|10-Q|20-F|40-F)$/.test(f.form) && (!base || f.filed > base.filed)) base = f;
    }
  }
  if (!base) throw new Error(`no periodic filing in companyfacts of ${cik}`);
  const b: Fact = base;
  const form = `${b.form}/A`;
  let latestEnd = '';
  let restated = '';
  const ni = facts.facts['us-gaap']?.NetIncomeLoss?.units?.USD as (Fact & { start?: string })[] | undefined;
  for (const f of ni ?? []) if (f.accn === b.accn && f.end > latestEnd) latestEnd = f.end;
  // the quarter's own figure (the shortest span ending on the period's end), as a quarterly series serves it
  const quarter = (ni ?? []).filter((f) => f.accn === b.accn && f.end === latestEnd).sort((x, y) => (y.start ?? '').localeCompare(x.start ?? ''))[0];
  if (quarter) restated = `${BigInt(quarter.val) + 100_000_000n}.000000`;
  for (const concepts of Object.values(facts.facts) as Record<string, { units: Record<string, Fact[]> }>[]) {
    for (const [name, c] of Object.entries(concepts)) for (const list of Object.values(c.units)) {
      const copies = list.filter((f) => f.accn === b.accn).map((f) => {
        const copy: Fact = { ...f, accn: accession, form, filed };
        delete copy.frame;
        if (name === 'NetIncomeLoss' && f.end === latestEnd) copy.val = f.val + 100_000_000;
        return copy;
      });
      list.push(...copies);
    }
  }
  const subsText = await readFile(path.join(root, 'data.sec.gov/submissions', `CIK${cik}.json`), 'utf8').catch(() => null);
  const result = { facts: JSON.stringify(facts), base: b.accn, form, fy: b.fy, fp: b.fp, restated_net_income: restated };
  if (subsText === null) return { ...result, submissions: null };
  const subs = JSON.parse(subsText);
  const recent = subs.filings.recent as Record<string, unknown[]>;
  const row: Record<string, unknown> = {
    accessionNumber: accession, filingDate: filed, reportDate: latestEnd, acceptanceDateTime: acceptedIso, act: '34', form,
    fileNumber: '', filmNumber: '', items: '', core_type: form, size: 1, isXBRL: 1, isInlineXBRL: 1, primaryDocument: 'amendment.htm', primaryDocDescription: form,
  };
  for (const key of Object.keys(recent)) recent[key]!.unshift(row[key] ?? '');
  return { ...result, submissions: JSON.stringify(subs) };
}

/**
 * A filer no identity load has seen: `cik` with the facts of one filing of `fromCik` (its latest
 * periodic one, under `accession`), and submissions naming it with `ticker`.
 */
export async function newFiler(root: string, fromCik: string, cik: string, name: string, ticker: string, accession: string, filed: string): Promise<{ facts: string; submissions: string; form: string }> {
  const facts = JSON.parse(await readFile(path.join(root, 'data.sec.gov/api/xbrl/companyfacts', `CIK${fromCik}.json`), 'utf8'));
  type Fact = { accn: string; form: string; filed: string; frame?: string };
  let base: Fact | null = null;
  for (const concepts of Object.values(facts.facts) as Record<string, { units: Record<string, Fact[]> }>[]) {
    for (const c of Object.values(concepts)) for (const list of Object.values(c.units)) for (const f of list) {
      if (/^(10-K|10-Q)$/.test(f.form) && (!base || f.filed > base.filed)) base = f;
    }
  }
  if (!base) throw new Error(`no periodic filing in companyfacts of ${fromCik}`);
  const b: Fact = base;
  for (const concepts of Object.values(facts.facts) as Record<string, { units: Record<string, Fact[]> }>[]) {
    for (const c of Object.values(concepts)) for (const [unit, list] of Object.entries(c.units)) {
      c.units[unit] = list.filter((f) => f.accn === b.accn).map((f) => ({ ...f, accn: accession, filed }));
    }
  }
  facts.cik = Number(cik);
  facts.entityName = name;
  const submissions = {
    cik, name, entityType: 'operating', sic: '7372', sicDescription: 'Services-Prepackaged Software', tickers: [ticker], exchanges: ['Nasdaq'],
    fiscalYearEnd: '0630', formerNames: [], addresses: {},
    filings: { recent: { accessionNumber: [accession], filingDate: [filed], reportDate: [''], acceptanceDateTime: [''], act: ['34'], form: [b.form], fileNumber: [''], filmNumber: [''], items: [''], core_type: [b.form], size: [1], isXBRL: [1], isInlineXBRL: [1], primaryDocument: ['doc.htm'], primaryDocDescription: [b.form] }, files: [] },
  };
  return { facts: JSON.stringify(facts), submissions: JSON.stringify(submissions), form: b.form };
}

/** The stand-in in a process of its own (test/helpers/sec-stand-in-child.ts), driven over IPC. */
export interface RemoteStandIn {
  origins: Record<string, string>;
  set(path: string, body: string | { status: number; body?: string }): void;
  hits(from: number): Promise<{ at: number; path: string; userAgent: string }[]>;
  close(): Promise<void>;
}

export async function startRemoteStandIn(): Promise<RemoteStandIn> {
  const child = fork(fileURLToPath(new URL('./sec-stand-in-child.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { type: string; origin: string }) => resolve(m.origin));
    child.once('exit', (code) => reject(new Error(`the stand-in process exited (${code})`)));
  });
  let nextId = 0;
  return {
    origins: { 'www.sec.gov': origin, 'data.sec.gov': origin },
    set: (p, body) => void child.send({ type: 'set', path: p, body }),
    hits: (from) =>
      new Promise((resolve) => {
        const id = ++nextId;
        const on = (m: { type: string; id: number; hits: { at: number; path: string; userAgent: string }[] }) => {
          if (m.type !== 'hits' || m.id !== id) return;
          child.off('message', on);
          resolve(m.hits);
        };
        child.on('message', on);
        child.send({ type: 'hits', id, from });
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'close' });
      }),
  };
}

