import { z } from 'zod';
import { issueGrant } from './grant-queries.ts';
import { latestPublished, snapshotById } from '../../db/bulk-snapshots.ts';
import { listPublished } from './queries.ts';
import { DAILY_BYTE_CAP } from '../../domain/bulk-budget.ts';
import { ServiceError } from '../../domain/service-error.ts';
import { blobKey } from '../../domain/bulk/blob-store.ts';
import { DATASETS } from '../../domain/bulk/datasets.ts';
import { SNAPSHOT_ID, type Manifest } from '../../domain/bulk/manifest.ts';
import { snapshotExpired } from '../../api/bulk-expiry.ts';
import { defineTool, type ToolContext } from '../../api/define-tool.ts';
import { dataEnvelope, pageOf, paginated, PageParams, Timestamp } from '../../api/schemas.ts';

const DatasetName = z.enum(['companies', 'filings', 'statements', 'financials', 'segments', 'disclosures']);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/).describe('SHA-256 of the file, lowercase hex');
const SnapshotIdOut = z.string().regex(SNAPSHOT_ID).describe('build start time, YYYYMMDDTHHMMSSZ');

const ColumnOut = z.object({
  name: z.string(),
  type: z.string().describe('Parquet-facing type: VARCHAR, VARCHAR[] (list of strings), INTEGER, BIGINT, BOOLEAN, DATE, TIMESTAMPTZ (timestamp, isAdjustedToUTC), DECIMAL(38,12)'),
  nullable: z.boolean(),
  description: z.string(),
});

const DatasetOut = z.object({
  dataset: DatasetName,
  description: z.string(),
  schema_version: z.number().int(),
  key: z.array(z.string()).describe('columns that identify a row'),
  partition_column: z.string().nullable().describe('directory partition, <column>_<value>; null for companies'),
  path_pattern: z.string(),
  columns: z.array(ColumnOut).describe('in file order'),
});

const FileOut = z.object({
  path: z.string(),
  dataset: DatasetName,
  partition: z.object({ column: z.string(), value: z.string() }).nullable(),
  rows: z.number().int(),
  bytes: z.number().int(),
  sha256: Sha256,
  changed: z.boolean().describe('false: byte-identical to the same path in the previous snapshot'),
});

const ManifestDatasetOut = z.object({
  dataset: DatasetName,
  schema_version: z.number().int(),
  rows: z.number().int(),
  bytes: z.number().int(),
  files: z.number().int(),
  changed_files: z.number().int(),
});

const SnapshotSummary = z.object({
  snapshot_id: SnapshotIdOut,
  build_kind: z.enum(['full', 'incremental']),
  format_version: z.number().int(),
  previous_snapshot_id: SnapshotIdOut.nullable(),
  published_at: Timestamp,
  read_at: Timestamp.describe('the corpus as of this instant'),
  rows: z.number().int(),
  bytes: z.number().int(),
  datasets: z.array(ManifestDatasetOut),
});

const ManifestOut = SnapshotSummary.extend({ files: z.array(FileOut) });

const GrantOut = z.object({
  snapshot_id: SnapshotIdOut,
  file_path: z.string(),
  url: z.string().describe('plain GET, no API key; valid until expires_at'),
  expires_at: Timestamp,
  bytes: z.number().int(),
  sha256: Sha256.describe('compare with the downloaded bytes and discard the file on mismatch'),
});

const SnapshotParam = z
  .union([z.literal('latest'), z.string().regex(SNAPSHOT_ID, 'a snapshot id is YYYYMMDDTHHMMSSZ, or the word latest')])
  .describe('snapshot id (YYYYMMDDTHHMMSSZ) or the word latest');

const BULK = { tool: false, plan: 'scale', requestClass: 'bulk' } as const;

/** A published manifest, or the spec's 404/410 for anything else. */
async function manifestFor(ctx: ToolContext, snapshotId: string): Promise<Manifest> {
  const sql = ctx.services.sql;
  if (snapshotId === 'latest') {
    const latest = await latestPublished(sql);
    if (!latest) throw new ServiceError('BULK_SNAPSHOT_NOT_FOUND', 'No snapshot has been published yet; the first is built at 04:30 UTC (or with `npm run fds -- export build`).');
    return latest.manifest;
  }
  const row = await snapshotById(sql, snapshotId);
  if (row?.status === 'expired') throw await snapshotExpired(sql, row);
  if (row?.status !== 'published' || !row.manifest) {
    throw new ServiceError('BULK_SNAPSHOT_NOT_FOUND', `No published snapshot ${snapshotId}; list them with /v1/bulk/snapshots.`, { snapshot_id: snapshotId });
  }
  return row.manifest;
}

const summary = (m: Manifest) => {
  const { files: _files, ...rest } = m;
  return rest;
};

export const BULK_TOOLS = [
  defineTool({
    ...BULK,
    name: 'bulk.datasets',
    title: 'Bulk datasets',
    description:
      'The six bulk datasets (companies, filings, statements, financials, segments, disclosures): for each the key columns, the partition column and the columns in file order with name, type, nullability and description. Files are Parquet with zstd; decimals are decimal(38,12), timestamps UTC.',
    http: { method: 'GET', path: '/v1/bulk/datasets' },
    input: z.object({}),
    output: dataEnvelope(z.array(DatasetOut)),
    handler: async () => ({
      data: DATASETS.map((d) => ({
        dataset: d.dataset,
        description: d.description,
        schema_version: d.schema_version,
        key: d.key,
        partition_column: d.partition_column,
        path_pattern: d.partition_column ? `${d.dataset}/${d.partition_column}_<value>/part-NNNN.parquet` : `${d.dataset}/part-NNNN.parquet`,
        columns: d.columns,
      })),
    }),
  }),
  defineTool({
    ...BULK,
    name: 'bulk.snapshots.list',
    title: 'Bulk snapshots',
    description: 'Published snapshots, newest first: id, build kind, rows, bytes and per-dataset counts (files are listed by /v1/bulk/snapshots/{snapshot_id}). The seven newest are kept.',
    http: { method: 'GET', path: '/v1/bulk/snapshots' },
    input: z.object({ ...PageParams }),
    output: paginated(SnapshotSummary),
    handler: async (ctx, input) => {
      const { total, rows } = await listPublished(ctx.services.sql, { limit: input.page_size, offset: (input.page - 1) * input.page_size });
      return pageOf(rows.map(summary), total, input.page, input.page_size);
    },
  }),
  defineTool({
    ...BULK,
    name: 'bulk.snapshots.get',
    title: 'Bulk snapshot manifest',
    description:
      'The manifest of one snapshot (or of the latest): every file with its path, dataset, partition, rows, bytes, sha256 and whether it changed since the previous snapshot. An expired snapshot answers 410 BULK_SNAPSHOT_EXPIRED.',
    http: { method: 'GET', path: '/v1/bulk/snapshots/{snapshot_id}' },
    input: z.object({ snapshot_id: SnapshotParam }),
    output: dataEnvelope(ManifestOut),
    handler: async (ctx, input) => ({ data: await manifestFor(ctx, input.snapshot_id) }),
  }),
  defineTool({
    ...BULK,
    name: 'bulk.files.grant',
    title: 'Bulk file download URL',
    description:
      "A download grant for one file of a snapshot: a URL fetched with a plain GET and no key, valid ten minutes, with the file's bytes and sha256 (compare after download and discard on mismatch). " +
      'Each organization may be issued 20 GiB of URLs in any rolling 24 hours; asking again while a URL is valid returns the same URL at no cost. Over the allowance: 429 BULK_DOWNLOAD_BUDGET_EXCEEDED with Retry-After.',
    http: { method: 'GET', path: '/v1/bulk/snapshots/{snapshot_id}/files/{file_path+}' },
    input: z.object({
      snapshot_id: SnapshotParam,
      file_path: z.string().min(1).max(300).describe('a path from the manifest, e.g. financials/fiscal_year_2023/part-0000.parquet (slashes as they are)'),
    }),
    output: dataEnvelope(GrantOut),
    handler: async (ctx, input) => {
      const manifest = await manifestFor(ctx, input.snapshot_id);
      const file = manifest.files.find((f) => f.path === input.file_path);
      if (!file) {
        throw new ServiceError('BULK_FILE_NOT_FOUND', `Snapshot ${manifest.snapshot_id} has no file ${input.file_path}; its manifest lists the paths.`, {
          snapshot_id: manifest.snapshot_id,
          file_path: input.file_path,
        });
      }
      const store = ctx.services.bulkStore;
      const grant = await issueGrant(ctx.services.sql, {
        orgId: ctx.auth!.orgId,
        snapshotId: manifest.snapshot_id,
        filePath: file.path,
        bytes: file.bytes,
        now: ctx.services.now(),
        cap: DAILY_BYTE_CAP,
        makeUrl: (expiresAt) => store.signedUrl(blobKey(manifest.snapshot_id, file.path), expiresAt),
      });
      return {
        data: {
          snapshot_id: manifest.snapshot_id,
          file_path: file.path,
          url: grant.url,
          expires_at: new Date(grant.expires_at).toISOString(),
          bytes: file.bytes,
          sha256: file.sha256,
        },
      };
    },
  }),
];
