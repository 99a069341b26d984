import type { Fact, FilingInfo } from './facts.ts';
import type { ParsedInstance } from './xbrl.ts';

/**
 * Facts of a filing package in the shape the normalizer reads, and their merge with company
 * facts. Company facts carry only facts without dimensions, so only those are taken from a
 * package for statements (dimensional ones become segment rows, text blocks disclosures).
 */

/** same concept, period, unit and (absent) dimensions: the same fact, whichever file told it */
function factKey(f: Pick<Fact, 'taxonomy' | 'concept' | 'unit' | 'start' | 'end'>): string {
  return `${f.taxonomy}:${f.concept}|${f.unit}|${f.start ?? ''}|${f.end}`;
}

/**
 * Numeric, non-nil facts without dimensions, one per concept, period and unit (an instance may
 * repeat a fact under two context ids). `fy`/`fp`, form and filed describe the filing, as in
 * company facts.
 */
export function factsFromInstance(instance: ParsedInstance, filing: FilingInfo): Fact[] {
  const out: Fact[] = [];
  const seen = new Set<string>();
  for (const x of instance.facts) {
    if (!x.numeric || x.nil || x.value === null || x.unitRef === null) continue;
    const ctx = instance.contexts.get(x.contextRef);
    const unit = instance.units.get(x.unitRef);
    if (!ctx || !unit || ctx.dimensions.length > 0) continue;
    const colon = x.concept.indexOf(':');
    const fact: Fact = {
      taxonomy: colon < 0 ? '' : x.concept.slice(0, colon),
      concept: colon < 0 ? x.concept : x.concept.slice(colon + 1),
      unit: unit.measure,
      start: ctx.start,
      end: ctx.end,
      value: x.value,
      accession: filing.accession,
      fy: filing.fiscal_year_focus,
      fp: filing.fiscal_period_focus,
      form: filing.form,
      filed: filing.filing_date,
      frame: null,
      decimals: x.decimals,
    };
    const key = factKey(fact);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(fact);
  }
  return out;
}

/**
 * A company fact with a package's decimals: written out field by field in the order every Fact is
 * made in, so it keeps the one shape the normalizer's hot functions see (a spread made another).
 */
function withDecimals(f: Fact, decimals: string): Fact {
  return {
    taxonomy: f.taxonomy,
    concept: f.concept,
    unit: f.unit,
    start: f.start,
    end: f.end,
    value: f.value,
    accession: f.accession,
    fy: f.fy,
    fp: f.fp,
    form: f.form,
    filed: f.filed,
    frame: f.frame,
    decimals,
  };
}

export interface MergedFacts {
  facts: Fact[];
  /** package facts company facts did not have (filer extensions, facts SEC's API leaves out) */
  added: number;
  /** package facts company facts already had */
  duplicates: number;
}

/**
 * Company facts plus each package's facts for the same filing that company facts lack. Where both
 * tell a fact, the company-facts one is kept (its fy/fp/form come from SEC's own index) with the
 * package's `decimals`; a package
 * of a filing company facts never saw contributes all its facts.
 */
export function mergePackageFacts(companyFacts: readonly Fact[], packages: ReadonlyMap<string, readonly Fact[]>): MergedFacts {
  const decimalsOf = new Map<string, Map<string, string | null>>();
  for (const [accession, list] of packages) decimalsOf.set(accession, new Map(list.map((f) => [factKey(f), f.decimals ?? null])));
  const known = new Map<string, Set<string>>();
  const facts: Fact[] = [];
  for (const f of companyFacts) {
    const fromPackage = decimalsOf.get(f.accession);
    facts.push(fromPackage ? withPackageDecimals(f, fromPackage, known) : f);
  }
  let added = 0;
  let duplicates = 0;
  for (const [accession, list] of packages) {
    const n = appendUnknown(facts, list, known.get(accession));
    added += n;
    duplicates += list.length - n;
  }
  return { facts, added, duplicates };
}

/**
 * A company fact of a filing a package was read for: noted as known, and given the package's
 * decimals where the package tells them. A function of its own, called per fact, so that V8
 * compiles this small body once rather than recompiling mergePackageFacts' loop on the fly (OSR)
 * with the whole function around it, again after each deoptimization.
 */
function withPackageDecimals(f: Fact, fromPackage: Map<string, string | null>, known: Map<string, Set<string>>): Fact {
  let keys = known.get(f.accession);
  if (!keys) known.set(f.accession, (keys = new Set()));
  const key = factKey(f);
  keys.add(key);
  // the package's decimals tell the precision companyfacts leaves out (the precision rule of versions)
  const decimals = fromPackage.get(key);
  return decimals === undefined || decimals === null ? f : withDecimals(f, decimals);
}

/**
 * The package facts company facts did not tell (`keys`: what they told of the filing), appended
 * to `facts`; returns how many. A function of its own for the same reason as withPackageDecimals.
 */
function appendUnknown(facts: Fact[], list: readonly Fact[], keys: Set<string> | undefined): number {
  let added = 0;
  for (const f of list) {
    if (keys?.has(factKey(f))) continue;
    facts.push(f);
    added++;
  }
  return added;
}
