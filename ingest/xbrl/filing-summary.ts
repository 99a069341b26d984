import type { SaxesTagNS } from 'saxes';
import type { SecSource } from '../source.ts';
import { feedSax, type XmlInput } from './xml-input.ts';
import { XmlScanParser } from './xml-scan.ts';

/**
 * FilingSummary.xml is what EDGAR's renderer made of a filing: one Report per R file, each tied
 * to an extended link role and filed under a menu category. It is SEC's own answer to "which
 * role is the balance sheet", so it backs up the schema's role definitions (and stands in for
 * them when the schema is not in the folder).
 */

export interface FilingSummaryReport {
  /** e.g. R2.htm; null for the "All Reports" book entry */
  htmlFileName: string | null;
  shortName: string | null;
  /** "0000005 - Statement - CONSOLIDATED BALANCE SHEETS", as the schema's role definition */
  longName: string | null;
  /** Cover, Statements, Notes, Policies, Tables, Details, Uncategorized (absent in pre-2011 summaries) */
  menuCategory: string | null;
  role: string | null;
  /** Sheet, Book, Notes... */
  reportType: string | null;
  position: number | null;
  /** the instance or inline document the report was rendered from (Report/@instance) */
  instance: string | null;
}

export interface FilingSummaryInputFile {
  name: string;
  /** form type on the primary document (File/@doctype), e.g. 10-Q */
  doctype: string | null;
  original: string | null;
}

export interface FilingSummary {
  reports: FilingSummaryReport[];
  inputFiles: FilingSummaryInputFile[];
  /** the first input file's doctype: the form of the filing */
  form: string | null;
}

/** The report's text fields (every one but position). */
type TextField = Exclude<keyof FilingSummaryReport, 'position'>;

const REPORT_FIELDS: Record<string, TextField | 'position'> = {
  HtmlFileName: 'htmlFileName',
  ShortName: 'shortName',
  LongName: 'longName',
  MenuCategory: 'menuCategory',
  Role: 'role',
  ReportType: 'reportType',
  Position: 'position',
};

/** Parses FilingSummary.xml; only MyReports/Report and InputFiles/File are read, the renderer's counters are not needed. */
export async function parseFilingSummary(input: XmlInput): Promise<FilingSummary> {
  const reports: FilingSummaryReport[] = [];
  const inputFiles: FilingSummaryInputFile[] = [];
  const path: string[] = [];
  let report: FilingSummaryReport | null = null;
  let file: FilingSummaryInputFile | null = null;
  let text = '';

  const parser = new XmlScanParser();
  parser.on('opentag', (tag: SaxesTagNS) => {
    path.push(tag.local);
    text = '';
    const parent = path[path.length - 2];
    if (tag.local === 'Report' && parent === 'MyReports') {
      report = { htmlFileName: null, shortName: null, longName: null, menuCategory: null, role: null, reportType: null, position: null, instance: tag.attributes['instance']?.value ?? null };
    } else if (tag.local === 'File' && parent === 'InputFiles') {
      file = { name: '', doctype: tag.attributes['doctype']?.value ?? null, original: tag.attributes['original']?.value ?? null };
    }
  });
  parser.on('text', (t: string) => {
    text += t;
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    path.pop();
    const value = text.trim();
    text = '';
    if (report && path[path.length - 1] === 'Report') {
      const field = REPORT_FIELDS[tag.local];
      if (field === 'position') report.position = value && Number.isFinite(Number(value)) ? Number(value) : null;
      else if (field) report[field] = value || null;
    } else if (tag.local === 'Report' && report) {
      reports.push(report);
      report = null;
    } else if (tag.local === 'File' && file) {
      file.name = value;
      inputFiles.push(file);
      file = null;
    }
  });
  await feedSax(parser, input);
  const form = inputFiles.find((f) => f.doctype)?.doctype ?? null;
  return { reports, inputFiles, form };
}

/** Reads `<folder>/FilingSummary.xml`; null when the folder has none (inline-only mirror folders, pre-2009 filings). */
export async function readFilingSummary(source: SecSource, folderUrl: string): Promise<FilingSummary | null> {
  const base = folderUrl.endsWith('/') ? folderUrl : `${folderUrl}/`;
  const stream = await source.openStream(`${base}FilingSummary.xml`);
  if (!stream) return null;
  try {
    return await parseFilingSummary(stream);
  } finally {
    stream.destroy();
  }
}

/** Reports that are face statements: menu category "Statements", or (older summaries without categories) a " - Statement - " LongName. */
export function statementReports(summary: FilingSummary): FilingSummaryReport[] {
  return summary.reports.filter((r) => r.menuCategory === 'Statements' || (r.menuCategory === null && / - Statement - /i.test(r.longName ?? '')));
}

/** The report rendered from a role, e.g. to link a statement to its R file. */
export function reportForRole(summary: FilingSummary, role: string): FilingSummaryReport | null {
  return summary.reports.find((r) => r.role === role) ?? null;
}
