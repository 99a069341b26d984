import type { StatementType } from '../domain/catalog/types.ts';
import { STATEMENT_TYPES } from '../domain/statements/types.ts';
import { calculationEvidence, type CalculationArc, type CalculationEvidence, type FactLookup } from '../domain/calculation-evidence.ts';
import type { Fact, FilingInfo } from '../domain/facts.ts';
import type { FaceConcepts, FilingFace } from '../domain/normalize/face-concepts.ts';
import { isPeriodicForm } from '../domain/normalize/history.ts';
import type { BuiltVersion } from '../domain/normalize/versions.ts';
import { factsFromInstance } from '../domain/package-facts.ts';
import type { ParsedInstance } from '../domain/xbrl.ts';
import { coverPage, filingFromPackage, type CoverPage, type FilingPackage } from './packages.ts';
import { flattenTree, presentationTree, statementRoles } from './xbrl/linkbases.ts';

/**
 * What a company's packages contribute to its normalization, worked out once per ingestion:
 * filings only the packages know, their facts by accession, the statement face concepts, and the
 * calculation trees of each statement.
 */
export interface AssembledPackages {
  packages: FilingPackage[];
  /** filings described by a package alone (no submissions entry, no company facts) */
  filings: FilingInfo[];
  /** every package's statement facts, by accession */
  facts: Map<string, Fact[]>;
  face: FaceConcepts;
  /** accession -> statement type -> the calculation arcs of the filing's roles for that statement */
  calculations: Map<string, Map<StatementType, CalculationArc[]>>;
  /** the latest package's cover page, for a company without company facts or submissions */
  cover: CoverPage | null;
}

export function assemblePackages(packages: readonly FilingPackage[], known: ReadonlyMap<string, FilingInfo>): AssembledPackages {
  const filings: FilingInfo[] = [];
  const facts = new Map<string, Fact[]>();
  const byAccession = new Map<string, FilingFace>();
  const calculations = new Map<string, Map<StatementType, CalculationArc[]>>();
  const kept: FilingPackage[] = [];
  let cover: CoverPage | null = null;
  let coverEnd = '';
  for (const pkg of packages) {
    const page = coverPage(pkg.instance);
    let filing = known.get(pkg.accession) ?? null;
    if (!filing) {
      filing = filingFromPackage(pkg, page);
      if (filing) filings.push(filing);
    }
    if (!filing || !isPeriodicForm(filing.form)) continue;
    kept.push(pkg);
    if ((page.period_end ?? '') >= coverEnd) [cover, coverEnd] = [page, page.period_end ?? ''];
    facts.set(pkg.accession, factsFromInstance(pkg.instance, filing));
    if (pkg.linkbases) {
      const { concepts, arcs } = statementStructure(pkg);
      if (concepts.size > 0) byAccession.set(pkg.accession, { filing_date: filing.filing_date, statements: concepts });
      calculations.set(pkg.accession, arcs);
    }
  }
  return { packages: kept, filings, facts, face: { byAccession }, calculations, cover };
}

/** The concepts each face statement presents and the calculation arcs of those roles. */
function statementStructure(pkg: FilingPackage): { concepts: Map<StatementType, Set<string>>; arcs: Map<StatementType, CalculationArc[]> } {
  const linkbases = pkg.linkbases!;
  const concepts = new Map<StatementType, Set<string>>();
  const arcs = new Map<StatementType, CalculationArc[]>();
  const types = new Set<string>(STATEMENT_TYPES);
  for (const role of statementRoles(linkbases, pkg.summary?.reports ?? [])) {
    if (!types.has(role.kind)) continue;
    const type = role.kind as StatementType;
    let set = concepts.get(type);
    if (!set) concepts.set(type, (set = new Set()));
    for (const line of flattenTree(presentationTree(linkbases, role.role))) set.add(line.concept);
    const list = arcs.get(type) ?? [];
    for (const a of linkbases.calculation) if (a.role === role.role) list.push({ from: a.from, to: a.to, weight: a.weight ?? 1 });
    arcs.set(type, list);
  }
  for (const [type, set] of concepts) if (set.size === 0) concepts.delete(type);
  return { concepts, arcs };
}

/** Values of a package's facts without dimensions, by concept and period, for calculation evidence. */
export function factLookup(instance: ParsedInstance): FactLookup {
  const values = new Map<string, { value: string; decimals: string | null }>();
  for (const x of instance.facts) {
    if (!x.numeric || x.nil || x.value === null) continue;
    const ctx = instance.contexts.get(x.contextRef);
    if (!ctx || ctx.dimensions.length > 0) continue;
    const key = `${x.concept}|${ctx.start ?? ''}|${ctx.end}`;
    if (!values.has(key)) values.set(key, { value: x.value, decimals: x.decimals });
  }
  return (concept, start, end) => values.get(`${concept}|${start ?? ''}|${end}`) ?? null;
}

/** Calculation evidence for versions whose filing came with a calculation linkbase; by version. */
export function evidenceForVersions(versions: readonly BuiltVersion[], assembled: AssembledPackages): Map<BuiltVersion, CalculationEvidence[]> {
  const out = new Map<BuiltVersion, CalculationEvidence[]>();
  const lookups = new Map<string, FactLookup>();
  const instances = new Map(assembled.packages.map((p) => [p.accession, p.instance]));
  for (const v of versions) {
    const arcs = assembled.calculations.get(v.filing.accession)?.get(v.statement_type);
    const instance = instances.get(v.filing.accession);
    if (!arcs || arcs.length === 0 || !instance) continue;
    let lookup = lookups.get(v.filing.accession);
    if (!lookup) lookups.set(v.filing.accession, (lookup = factLookup(instance)));
    // only figures this filing itself told; carried-over ones are another filing's evidence
    const own = new Map([...v.figures].filter(([, f]) => f.source_accession === v.filing.accession));
    out.set(v, calculationEvidence(v.statement_type, own, arcs, lookup));
  }
  return out;
}
