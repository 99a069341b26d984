/** Prose accumulated with HTML's whitespace rules. */

const WHITESPACE_RUN = /\s+/g;
/**
 * What WHITESPACE_RUN would change: white space other than a space, or two spaces in a row. Prose
 * with single spaces between its words has none, and testing for it once is much cheaper than a
 * replace that matches (and rewrites to itself) every gap between two words.
 */
const NOT_COLLAPSED = /[^\S ]| {2}/;

/**
 * Accumulates prose with HTML's whitespace rules: runs collapse to one space, spaces at line ends
 * vanish. Breaks are owed rather than written, so nested blocks ask for one break instead of
 * stacking blank lines, and nothing is written before the first or after the last word. A
 * single-line flow (a table cell) turns every break into a space.
 */
export class TextFlow {
  private readonly out: string[] = [];
  private lineOpen = false;
  private owedBreaks = 0;
  private owedSpace = false;
  private owedMarker = '';

  constructor(private readonly singleLine: boolean) {}

  text(s: string): void {
    const t = NOT_COLLAPSED.test(s) ? s.replace(WHITESPACE_RUN, ' ') : s;
    if (t === '') return;
    if (t === ' ') {
      this.owedSpace = true;
      return;
    }
    const lead = t.charCodeAt(0) === 32;
    const trail = t.charCodeAt(t.length - 1) === 32;
    this.write(t.slice(lead ? 1 : 0, trail ? -1 : undefined), lead);
    this.owedSpace = trail;
  }

  /** 1: start a new line; 2: start a new paragraph after one blank line */
  block(lines: 1 | 2): void {
    if (this.singleLine) this.owedSpace = true;
    else this.owedBreaks = Math.max(this.owedBreaks, lines);
  }

  /** <br> adds to what blocks owe, so <br><br> leaves a blank line */
  lineBreak(): void {
    if (this.singleLine) this.owedSpace = true;
    else this.owedBreaks = Math.min(2, this.owedBreaks + 1);
  }

  /** a list marker written before the item's first word, wherever block breaks fall */
  marker(m: string): void {
    this.block(1);
    if (!this.singleLine) this.owedMarker = m;
  }

  clearMarker(): void {
    this.owedMarker = '';
  }

  /** a preformatted line (a table row) whose inner spacing must survive */
  line(s: string): void {
    const body = s.trimEnd();
    if (body === '') return;
    this.block(1);
    this.owedMarker = '';
    this.write(body, false);
    this.block(1);
  }

  result(): string {
    return this.out.join('');
  }

  private write(body: string, spaceBefore: boolean): void {
    if (this.owedBreaks > 0) {
      if (this.out.length > 0) this.out.push(this.owedBreaks > 1 ? '\n\n' : '\n');
      this.owedBreaks = 0;
      this.lineOpen = false;
    }
    if (!this.lineOpen) {
      if (this.owedMarker !== '') this.out.push(this.owedMarker);
      this.owedMarker = '';
    } else if (spaceBefore || this.owedSpace) {
      this.out.push(' ');
    }
    this.out.push(body);
    this.lineOpen = true;
    this.owedSpace = false;
  }
}
