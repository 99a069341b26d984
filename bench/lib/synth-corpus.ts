import { copyFile, link, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A corpus N times the mirror, for measuring reads and ingestion at scale (`npm run bench --
 * scale`, `npm run fds -- corpus synth --factor N`). The output is a mirror directory: the source
 * mirror itself (hard links, so the real companies keep their CIKs and every read of the 1x corpus
 * reads the same rows at Nx), plus N-1 clones of every company with company facts, each under a
 * new CIK. A clone carries the company's whole history (every fact of every filing, amendments
 * included, so the same versions and restatements come out of ingestion) and its submissions
 * (main file and history pages) with accession numbers rewritten consistently in both; filing
 * packages (Archives) are not cloned.
 *
 * Values are perturbed by an integer factor per clone (2 to 9), applied to amounts and share
 * counts but not to ratios such as USD/shares: every linear identity (assets = liabilities +
 * equity, EPS = income / shares) still holds exactly, so the clones pass the same checks as their
 * originals, and no value goes through floating point (the digits are multiplied as integers).
 */
export interface SynthOptions {
  /** the mirror to clone (SEC_SOURCE layout) */
  source: string;
  /** an empty or missing directory to write the synthetic mirror into */
  out: string;
  /** 1 = the mirror itself; N = the mirror plus N-1 clones of each company (at most 1000) */
  factor: number;
  log?: (m: string) => void;
}

export interface SynthResult {
  out: string;
  factor: number;
  /** companies with company facts in the source */
  companies: number;
  /** companies written in all (originals + clones) */
  companies_total: number;
  /** companyfacts bytes of the source, and of the whole synthetic mirror */
  companyfacts_bytes_source: number;
  companyfacts_bytes_total: number;
}

const FACTS_DIR = 'data.sec.gov/api/xbrl/companyfacts';
const SUBMISSIONS_DIR = 'data.sec.gov/submissions';
const MAIN_FILE = /^CIK(\d{10})\.json$/;
const ACCESSION = /^(\d{10})-(\d{2})-(\d{6})$/;

/** Clone k of the company at sorted index i: `9` + k (3 digits) + i (6 digits), outside EDGAR's CIK range. */
export function synthCik(k: number, i: number): string {
  return `9${String(k).padStart(3, '0')}${String(i).padStart(6, '0')}`;
}

/** The integer each value of clone k is multiplied by: 2..9, never 1, so every clone differs from its original. */
export function perturbFactor(k: number): bigint {
  return BigInt(2 + ((k - 1) % 8));
}

/**
 * Accession of clone k: the filer-agent prefix becomes `9` + k + its last six digits, year and
 * sequence stay. Injective as long as the source's prefixes differ in their last six digits,
 * which synthesizeCorpus checks over the whole source before writing anything.
 */
export function synthAccession(accession: string, k: number): string {
  const m = ACCESSION.exec(accession);
  if (!m) throw new Error(`not an accession number: ${JSON.stringify(accession)}`);
  return `9${String(k).padStart(3, '0')}${m[1]!.slice(4)}-${m[2]}-${m[3]}`;
}

/** Amount and share units are scaled; a ratio unit (USD/shares, pure) is not. */
function scalesUnit(unit: string): boolean {
  return !unit.includes('/') && unit.toLowerCase() !== 'pure';
}

/** An integer value times m, exactly; any other value (fractions, exponents) unchanged. */
function scaleValue(val: unknown, m: bigint): unknown {
  if (typeof val !== 'number' || !Number.isSafeInteger(val)) return val;
  const scaled = BigInt(val) * m;
  // beyond 2^53 a JSON number no longer round-trips through JSON.parse exactly: keep the original
  return scaled <= BigInt(Number.MAX_SAFE_INTEGER) && scaled >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(scaled) : val;
}

type Json = Record<string, any>;

/** One clone of a parsed companyfacts document. */
export function cloneCompanyFacts(doc: Json, cik: string, k: number): Json {
  const m = perturbFactor(k);
  const facts: Json = {};
  for (const [taxonomy, concepts] of Object.entries<Json>(doc.facts ?? {})) {
    const outConcepts: Json = {};
    for (const [concept, body] of Object.entries<Json>(concepts)) {
      const units: Json = {};
      for (const [unit, rows] of Object.entries<Json[]>(body.units ?? {})) {
        const scale = scalesUnit(unit);
        units[unit] = rows.map((r) => ({ ...r, accn: synthAccession(r.accn, k), val: scale ? scaleValue(r.val, m) : r.val }));
      }
      outConcepts[concept] = { ...body, units };
    }
    facts[taxonomy] = outConcepts;
  }
  return { ...doc, cik: Number(cik), entityName: `${doc.entityName ?? 'Company'} (synthetic ${k})`, facts };
}

/** One clone of a submissions main file or history page (history pages hold the filing columns at the top). */
export function cloneSubmissions(doc: Json, cik: string, k: number, isPage: boolean): Json {
  const rewrite = (cols: Json): Json => ({ ...cols, accessionNumber: (cols.accessionNumber ?? []).map((a: string) => synthAccession(a, k)) });
  if (isPage) return rewrite(doc);
  const filings = doc.filings ?? {};
  return {
    ...doc,
    cik,
    name: `${doc.name ?? 'Company'} (synthetic ${k})`,
    tickers: [],
    exchanges: [],
    formerNames: [],
    filings: {
      ...filings,
      recent: rewrite(filings.recent ?? {}),
      files: (filings.files ?? []).map((f: Json) => ({ ...f, name: String(f.name).replace(/^CIK\d{10}/, `CIK${cik}`) })),
    },
  };
}

/** Copies a tree by hard links (same file system) or by copying. */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const e of await readdir(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isDirectory()) await linkTree(a, b);
    else if (e.isFile()) await link(a, b).catch(() => copyFile(a, b));
  }
}

function accessionsOf(facts: Json, submissions: Json[], into: Set<string>): void {
  for (const concepts of Object.values<Json>(facts.facts ?? {}))
    for (const body of Object.values<Json>(concepts))
      for (const rows of Object.values<Json[]>(body.units ?? {})) for (const r of rows) into.add(r.accn);
  for (const s of submissions) for (const a of (s.filings?.recent ?? s).accessionNumber ?? []) into.add(a);
}

/** Writes the synthetic mirror; see the module comment. */
export async function synthesizeCorpus(options: SynthOptions): Promise<SynthResult> {
  const { source, out, factor } = options;
  const log = options.log ?? (() => {});
  if (!Number.isInteger(factor) || factor < 1 || factor > 1000) throw new Error(`factor must be an integer from 1 to 1000, got ${factor}`);
  const existing = await readdir(out).catch(() => []);
  if (existing.length > 0) throw new Error(`${out} is not empty; synthesize into a new directory`);
  const factsDir = path.join(source, FACTS_DIR);
  const names = (await readdir(factsDir)).filter((n) => MAIN_FILE.test(n)).sort();
  if (names.length === 0) throw new Error(`no CIK##########.json files in ${factsDir}`);

  log(`linking the source mirror ${source} into ${out}`);
  await linkTree(source, out);

  const companies: { cik: string; facts: Json; factsBytes: number; main: Json | null; pages: [string, Json][] }[] = [];
  const accessions = new Set<string>();
  for (const name of names) {
    const cik = MAIN_FILE.exec(name)![1]!;
    const text = await readFile(path.join(factsDir, name), 'utf8');
    const facts = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Json;
    const subDir = path.join(source, SUBMISSIONS_DIR);
    const main = await readJsonOrNull(path.join(subDir, `CIK${cik}.json`));
    const pages: [string, Json][] = [];
    for (const f of main?.filings?.files ?? []) {
      const page = await readJsonOrNull(path.join(subDir, String(f.name)));
      if (page) pages.push([String(f.name), page]);
    }
    accessionsOf(facts, [...(main ? [main] : []), ...pages.map(([, p]) => p)], accessions);
    companies.push({ cik, facts, factsBytes: Buffer.byteLength(text), main, pages });
  }
  const byTail = new Map<string, string>();
  for (const a of accessions) {
    const prefix = ACCESSION.exec(a)?.[1];
    if (!prefix) throw new Error(`not an accession number in the source: ${JSON.stringify(a)}`);
    const other = byTail.get(prefix.slice(4));
    if (other && other !== prefix) throw new Error(`accession prefixes ${other} and ${prefix} share their last six digits; clones would collide`);
    byTail.set(prefix.slice(4), prefix);
  }

  const sourceBytes = companies.reduce((n, c) => n + c.factsBytes, 0);
  let totalBytes = sourceBytes;
  for (let k = 1; k < factor; k++) {
    for (const [i, c] of companies.entries()) {
      const cik = synthCik(k, i);
      const text = JSON.stringify(cloneCompanyFacts(c.facts, cik, k));
      totalBytes += Buffer.byteLength(text);
      await writeFile(path.join(out, FACTS_DIR, `CIK${cik}.json`), text);
      if (c.main) await writeFile(path.join(out, SUBMISSIONS_DIR, `CIK${cik}.json`), JSON.stringify(cloneSubmissions(c.main, cik, k, false)));
      for (const [name, page] of c.pages) {
        await writeFile(path.join(out, SUBMISSIONS_DIR, name.replace(/^CIK\d{10}/, `CIK${cik}`)), JSON.stringify(cloneSubmissions(page, cik, k, true)));
      }
    }
    log(`clone ${k} of ${factor - 1}: ${companies.length} companies`);
  }
  return {
    out,
    factor,
    companies: companies.length,
    companies_total: companies.length * factor,
    companyfacts_bytes_source: sourceBytes,
    companyfacts_bytes_total: totalBytes,
  };
}

async function readJsonOrNull(file: string): Promise<Json | null> {
  try {
    const text = await readFile(file, 'utf8');
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Json;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
