import { TextFlow } from './text-flow.ts';

/** TextBlock tables as aligned plain-text columns. */

export interface RawCell {
  flow: TextFlow;
  span: number;
  rowspan: number;
}

/**
 * Rows and cells as the markup opens them. HTML 4 filings rarely close <td> or <tr>, so opening a
 * cell closes the previous one and opening a row closes the previous row.
 */
export class TableBuilder {
  readonly rows: RawCell[][] = [];
  private row: RawCell[] | null = null;
  private cell: RawCell | null = null;

  startRow(): void {
    this.cell = null;
    this.row = [];
    this.rows.push(this.row);
  }

  endRow(): void {
    this.cell = null;
    this.row = null;
  }

  startCell(span: number, rowspan = 1): void {
    if (this.row === null) this.startRow();
    this.cell = { flow: new TextFlow(true), span, rowspan };
    this.row!.push(this.cell);
  }

  endCell(): void {
    this.cell = null;
  }

  /** the open cell's flow, or null between cells, where only layout whitespace belongs */
  openFlow(): TextFlow | null {
    return this.cell?.flow ?? null;
  }

  /** the open cell's flow, opening one for stray content rather than losing it */
  flow(): TextFlow {
    if (this.cell === null) this.startCell(1);
    return this.cell!.flow;
  }
}

/** Column separator: with spacer columns gone, an explicit bar keeps empty cells countable. */
const SEPARATOR = ' | ';
/** Grid columns a table may lay out; real notes use under a hundred, spans included. */
const MAX_COLUMNS = 1000;
/** Longer cells (paragraph-long descriptions) overflow instead of padding every row to their size. */
const MAX_ALIGNED_WIDTH = 100;
/** Cells SEC tables set apart from the number they belong to. */
const LEADING_SYMBOL = /^(?:[$€£¥]|\(|\$\()$/;
/** Bullets that old filings set in a cell of their own, left of the item's text. */
const BULLET = /^[•·▪◦●○■□➢➤‣∙]$/;
const TRAILING_SYMBOL = /^(?:\)|%|\)%|%\))$/;
const NUMBER_START = /^[\d(.\-–—−]/;
const NUMERIC = /^[-–—−$€£¥(]*\s?(?:\d[\d,]*(?:\.\d+)?|\.\d+|[-–—−])\s?[)%*]*$/;

interface Cell {
  text: string;
  start: number;
  span: number;
}

/**
 * "$" | "1,234" -> "$1,234", "(56" | ")" -> "(56)" and "•" | "item" -> "• item", leaving the
 * symbol's cell empty so its column can go.
 */
function glueSymbols(row: Cell[]): void {
  for (let i = 0; i < row.length; i++) {
    const cell = row[i]!;
    if (LEADING_SYMBOL.test(cell.text) || BULLET.test(cell.text)) {
      let j = i + 1;
      while (j < row.length && row[j]!.text === '') j++;
      const next = row[j];
      if (next === undefined) continue;
      if (next.text.startsWith(cell.text)) cell.text = ''; // "$" | "$380": the figure already has it
      else if (BULLET.test(cell.text)) next.text = `${cell.text} ${next.text}`;
      else if (NUMBER_START.test(next.text)) next.text = cell.text + next.text;
      else continue;
      cell.text = '';
    } else if (TRAILING_SYMBOL.test(cell.text)) {
      let k = i - 1;
      while (k >= 0 && row[k]!.text === '') k--;
      const prev = row[k];
      if (prev) {
        prev.text += cell.text;
        cell.text = '';
      }
    }
  }
}

/**
 * Column positions as HTML lays them out: a cell starts at the first column not taken by a cell
 * above that spans rows (old filings stack header words with rowspan="2").
 *
 * The rows here and in dropEmptyColumns are built with push, not Array.prototype.map: map's
 * result is a packed array in the interpreter and a holey one once the caller is optimized, and
 * every function of this file deoptimized on meeting the other kind.
 */
function placeCells(rows: RawCell[][]): Cell[][] {
  /** the first row index at which each column is free again of a rowspan from above */
  const takenUntil: number[] = [];
  const placed: Cell[][] = [];
  for (let r = 0; r < rows.length; r++) {
    let col = 0;
    const row: Cell[] = [];
    for (const raw of rows[r]!) {
      while (col < MAX_COLUMNS - 1 && (takenUntil[col] ?? 0) > r) col++;
      // past the cap, cells pile into the last column instead of growing the grid without bound
      const start = Math.min(col, MAX_COLUMNS - 1);
      const span = Math.min(raw.span, MAX_COLUMNS - start);
      if (raw.rowspan > 1) for (let c = start; c < start + span; c++) takenUntil[c] = r + raw.rowspan;
      col = start + span;
      row.push({ text: raw.flow.result(), start, span });
    }
    placed.push(row);
  }
  return placed;
}

/**
 * Drops columns no text lands in: SEC tables carry spacer and symbol columns on every row. A
 * column is kept when a one-column cell has text there; a wider cell whose text would otherwise
 * have no column keeps its first one. Cells are renumbered onto the kept columns.
 */
function dropEmptyColumns(rows: Cell[][]): { rows: Cell[][]; columns: number } {
  let width = 0;
  for (const row of rows) for (const c of row) width = Math.max(width, c.start + c.span);
  const kept = new Uint8Array(width);
  for (const row of rows) for (const c of row) if (c.span === 1 && c.text !== '') kept[c.start] = 1;
  for (const row of rows) {
    for (const c of row) {
      if (c.span === 1 || c.text === '' || kept.subarray(c.start, c.start + c.span).includes(1)) continue;
      kept[c.start] = 1;
    }
  }
  const before = new Uint32Array(width + 1);
  for (let i = 0; i < width; i++) before[i + 1] = before[i]! + kept[i]!;
  const remapped: Cell[][] = [];
  for (const row of rows) {
    const out: Cell[] = [];
    for (const c of row) {
      if (c.text !== '') out.push({ text: c.text, start: before[c.start]!, span: before[c.start + c.span]! - before[c.start]! });
    }
    if (out.length > 0) remapped.push(out);
  }
  return { rows: remapped, columns: before[width]! };
}

/** Columns mostly holding numbers are right-aligned, headers above them included. */
function numericColumns(rows: Cell[][], columns: number): boolean[] {
  const numbers = new Array<number>(columns).fill(0);
  const words = new Array<number>(columns).fill(0);
  for (const row of rows) {
    if (row.length < 2) continue;
    for (const c of row) {
      if (c.span !== 1) continue;
      if (NUMERIC.test(c.text)) numbers[c.start]!++;
      else words[c.start]!++;
    }
  }
  return numbers.map((n, i) => n > 0 && n >= words[i]!);
}

/** Positive figures get a trailing space where negatives carry ")", so digits line up. */
function padForParentheses(rows: Cell[][], numeric: boolean[]): void {
  const hasParen = new Array<boolean>(numeric.length).fill(false);
  for (const row of rows) {
    for (const c of row) if (c.span === 1 && numeric[c.start] && c.text.endsWith(')') && NUMERIC.test(c.text)) hasParen[c.start] = true;
  }
  for (const row of rows) {
    for (const c of row) {
      if (c.span === 1 && hasParen[c.start] && NUMERIC.test(c.text) && /[\d–—−-]$/.test(c.text)) c.text += ' ';
    }
  }
}

function columnWidths(rows: Cell[][], columns: number): number[] {
  const widths = new Array<number>(columns).fill(0);
  const aligned = rows.filter((row) => row.length > 1);
  for (const row of aligned) {
    for (const c of row) {
      if (c.span === 1 && c.text.length <= MAX_ALIGNED_WIDTH) widths[c.start] = Math.max(widths[c.start]!, c.text.length);
    }
  }
  for (const row of aligned) {
    for (const c of row) {
      if (c.span === 1 || c.text.length > MAX_ALIGNED_WIDTH) continue;
      const missing = c.text.length - spanWidth(widths, c.start, c.span);
      if (missing > 0) widths[c.start + c.span - 1]! += missing;
    }
  }
  return widths;
}

function spanWidth(widths: number[], start: number, span: number): number {
  let w = SEPARATOR.length * (span - 1);
  for (let i = start; i < start + span; i++) w += widths[i]!;
  return w;
}

function align(text: string, width: number, how: 'left' | 'right' | 'center'): string {
  const room = width - text.length;
  if (room <= 0) return text;
  if (how === 'right') return ' '.repeat(room) + text;
  if (how === 'center') {
    const left = room >> 1;
    return ' '.repeat(left) + text + ' '.repeat(room - left);
  }
  return text + ' '.repeat(room);
}

function renderRow(row: Cell[], widths: number[], numeric: boolean[]): string {
  const parts: string[] = [];
  let col = 0;
  for (const c of row) {
    for (; col < c.start; col++) parts.push(' '.repeat(widths[col]!));
    const how = c.span > 1 ? 'center' : numeric[c.start] ? 'right' : 'left';
    parts.push(align(c.text, spanWidth(widths, c.start, c.span), how));
    col = c.start + c.span;
  }
  return parts.join(SEPARATOR).trimEnd();
}

/**
 * A row with a single cell (a section label, a footnote, a lone heading) is written at its
 * column's offset without bars: it takes no part in column widths, so a long footnote does not
 * stretch the label column of every row.
 */
function renderLooseRow(cell: Cell, widths: number[], numeric: boolean[]): string {
  if (cell.start === 0) return cell.text;
  const offset = spanWidth(widths, 0, cell.start) + SEPARATOR.length;
  const width = spanWidth(widths, cell.start, cell.span);
  const how = cell.span > 1 ? 'center' : numeric[cell.start] ? 'right' : 'left';
  return (' '.repeat(offset) + align(cell.text, width, how)).trimEnd();
}

/**
 * Text lines for a table: aligned columns joined by " | " once spacer columns are dropped and
 * split-off "$", ")" and "%" are glued back to their numbers; plain lines when one column remains.
 */
export function renderTable(rawRows: RawCell[][]): string[] {
  const placed = placeCells(rawRows);
  for (const row of placed) glueSymbols(row);
  const { rows, columns } = dropEmptyColumns(placed);
  if (columns <= 1 || rows.every((row) => row.length === 1)) return rows.map((row) => row.map((c) => c.text).join(' '));
  const numeric = numericColumns(rows, columns);
  padForParentheses(rows, numeric);
  const widths = columnWidths(rows, columns);
  return rows.map((row) => (row.length === 1 ? renderLooseRow(row[0]!, widths, numeric) : renderRow(row, widths, numeric)));
}

/** A table inside a cell cannot be aligned within one line; its cells are read in order. */
export function renderNestedTable(rawRows: RawCell[][]): string[] {
  return rawRows.map((row) => row.map((c) => c.flow.result()).filter((t) => t !== '').join(' '));
}
