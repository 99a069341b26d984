import type { SelectionRule, StatementType } from '../statement-types.ts';
import type { Candidate } from './candidates.ts';

/** concepts (taxonomy-qualified, e.g. us-gaap:Revenues) a presentation linkbase places on each statement */
export type StatementConcepts = ReadonlyMap<StatementType, ReadonlySet<string>>;

/** A filing's own presentation: the concepts on each statement, and when it was filed. */
export interface FilingFace {
  filing_date: string;
  statements: StatementConcepts;
}

/**
 * What filing packages say about the statement face, by accession. A filing without a
 * presentation linkbase of its own (inline-only, or known only from company facts) borrows the
 * face of the company's nearest filing that has one, if filed within FACE_REACH_DAYS: neighbours
 * then pick the same concept, so a comparative column is not mistaken for a restatement. Further
 * away the filer may have presented another tag (Apple's cash-flow depreciation line moved from
 * DepreciationAmortizationAndAccretionNet to DepreciationDepletionAndAmortization), so the
 * catalog order decides there.
 */
export interface FaceConcepts {
  byAccession: ReadonlyMap<string, FilingFace>;
}

export const FACE_REACH_DAYS = 400;

export const NO_FACE: FaceConcepts = { byAccession: new Map() };

/** The face a filing's figures are chosen by: its own, else the nearest within reach, else none. */
export function faceFor(face: FaceConcepts, accession: string, filingDate: string): { statements: StatementConcepts; own: boolean } | null {
  const own = face.byAccession.get(accession);
  if (own) return { statements: own.statements, own: true };
  let best: FilingFace | null = null;
  let bestDistance = Infinity;
  const at = Date.parse(`${filingDate}T00:00:00Z`);
  for (const f of face.byAccession.values()) {
    const distance = Math.abs(Date.parse(`${f.filing_date}T00:00:00Z`) - at) / 86_400_000;
    if (distance <= FACE_REACH_DAYS && (distance < bestDistance || (distance === bestDistance && best !== null && f.filing_date > best.filing_date))) {
      best = f;
      bestDistance = distance;
    }
  }
  return best ? { statements: best.statements, own: false } : null;
}

/**
 * The candidate a statement shows for a metric. Candidates arrive best first in catalog order
 * (totals before components). A concept the filing presents on this very statement beats one it
 * only tags in the notes; among presented concepts the catalog order still decides, so a total
 * stays ahead of its components.
 */
export function chooseCandidate(
  list: readonly Candidate[],
  type: StatementType,
  face: { statements: StatementConcepts; own: boolean } | null,
): { candidate: Candidate; rule: SelectionRule } {
  const presented = face?.statements.get(type);
  if (presented) {
    for (const c of list) {
      if (presented.has(c.concept)) return { candidate: c, rule: face!.own ? 'PRESENTATION_LINKBASE' : 'COMPANY_PRESENTATION' };
    }
  }
  return { candidate: list[0]!, rule: 'CANDIDATE_ORDER' };
}
