/**
 * What every company read of a built modeling snapshot starts with (the modeling and ai areas):
 * the company_id parameter (a UUID; a CIK is refused with the identity route to call), the CIK
 * behind it (reported to the coverage gate), and the ready snapshot its `as_of` names: 404
 * NOT_FOUND when no snapshot of that date is built; a snapshot of that date that did not include
 * the company is returned with `included` false (the caller answers an empty result).
 */
import { z } from 'zod';
import { cikOfCompany } from '../db/modeling-rows.ts';
import { readySnapshotFor, type SnapshotRecord } from '../db/modeling-snapshots.ts';
import { asOfTimestamp } from '../domain/modeling/snapshot.ts';
import { ServiceError } from '../domain/service-error.ts';
import type { ToolContext } from './define-tool.ts';

export const IDENTITY_ROUTE = 'GET /v1/identity/companies/{cik}';

export const CompanyIdParam = z
  .string()
  .superRefine((s, ctx) => {
    if (/^\d{1,10}$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: `${s} looks like a CIK; modeling and AI routes take our company_id (a UUID). Get it from ${IDENTITY_ROUTE} (field company_id).` });
    } else if (!z.string().uuid().safeParse(s).success) {
      ctx.addIssue({ code: 'custom', message: `company_id must be a UUID (from ${IDENTITY_ROUTE}).` });
    }
  })
  .describe('our company UUID (field company_id of identity_search or of the identity records); a CIK is refused');

export interface CompanySnapshot {
  cik: string;
  snapshot: SnapshotRecord;
  /** the snapshot's universe holds the company */
  included: boolean;
}

export async function companySnapshot(ctx: ToolContext, companyId: string, asOf: string): Promise<CompanySnapshot> {
  const sql = ctx.services.sql;
  const cik = await cikOfCompany(sql, companyId);
  if (!cik) throw new ServiceError('NOT_FOUND', `No company has company_id ${companyId}. Look it up with ${IDENTITY_ROUTE}.`, { company_id: companyId });
  await ctx.reach([cik]);
  const snapshot = await readySnapshotFor(sql, asOf, cik);
  if (!snapshot) {
    throw new ServiceError(
      'NOT_FOUND',
      `No modeling snapshot is built for as_of ${asOf}. Build one with POST /v1/modeling/universe/pit-snapshot (as_of_date ${asOf}) and read again once it answers 200.`,
      { as_of: asOf },
    );
  }
  return { cik, snapshot, included: snapshot.ciks.includes(cik) };
}

/** The snapshot fields every row read from a snapshot carries. */
export function snapshotFields(s: SnapshotRecord) {
  return { snapshot_id: s.snapshot_id, as_of_snapshot_id: s.as_of_snapshot_id, as_of_timestamp: asOfTimestamp(s.as_of_date), snapshot_hash: s.snapshot_hash! };
}
