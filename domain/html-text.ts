/**
 * Readable plain text from the HTML of XBRL TextBlock facts: the narrative notes of SEC filings,
 * which agents and plain-text clients cannot use as markup. Inputs are XHTML from inline XBRL
 * (possibly with namespace prefixes) or the sloppy HTML 4 of 2009-2012 filings, so this is a
 * forgiving single-pass tokenizer rather than a parser that validates: nothing here throws on
 * malformed markup, and every scan moves forward, so the cost stays linear in the input.
 */
import { decodeEntities } from './html/entities.ts';
import { TextFlow } from './html/text-flow.ts';
import { renderNestedTable, renderTable, TableBuilder } from './html/text-table.ts';
import { tokenize, type Spans, type TokenSink } from './html/tokenizer.ts';

export { titleFromConcept } from './html/concept-title.ts';

/** Blocks that read as paragraphs; Workiva-made filings set every paragraph in a <div>. */
const PARAGRAPH_ELEMENTS = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'section', 'article', 'header',
  'footer', 'aside', 'nav', 'main', 'figure', 'form', 'fieldset', 'address', 'center', 'hr', 'dl',
]);
const LINE_ELEMENTS = new Set(['dt', 'dd', 'figcaption', 'legend', 'summary', 'details', 'option', 'body', 'html']);
/** Elements without content: `<br/>` must not also count as its own closing tag. */
const VOID_ELEMENTS = new Set([
  'br', 'hr', 'img', 'input', 'meta', 'link', 'col', 'area', 'base', 'wbr', 'param', 'source', 'track', 'embed',
]);

class Renderer implements TokenSink {
  private readonly doc = new TextFlow(false);
  private readonly tables: TableBuilder[] = [];
  private listDepth = 0;

  text(raw: string): void {
    const text = decodeEntities(raw);
    const table = this.tables.at(-1);
    if (table === undefined) return this.doc.text(text);
    const open = table.openFlow();
    if (open) open.text(text);
    // text between cells is indentation unless it has words, which sloppy HTML does leave there
    else if (text.trim() !== '') table.flow().text(text);
  }

  open(name: string, spans: Spans, selfClosing: boolean): void {
    const table = this.tables.at(-1);
    switch (name) {
      case 'table':
        this.openTable();
        break;
      case 'tr':
        if (table) table.startRow();
        else this.doc.block(1);
        break;
      case 'td':
      case 'th':
        if (table) table.startCell(spans.colspan, spans.rowspan);
        else this.doc.text(' ');
        break;
      case 'caption':
        if (table) {
          table.startRow();
          table.startCell(1);
        }
        break;
      case 'br':
        this.flow()?.lineBreak();
        break;
      case 'ul':
      case 'ol':
        this.flow()?.block(this.listDepth > 0 ? 1 : 2);
        this.listDepth++;
        break;
      case 'li':
        this.flow()?.marker(`${'  '.repeat(Math.max(0, this.listDepth - 1))}- `);
        break;
      default:
        this.blockFor(name);
    }
    if (selfClosing && !VOID_ELEMENTS.has(name)) this.close(name);
  }

  close(name: string): void {
    const table = this.tables.at(-1);
    switch (name) {
      case 'table':
        this.closeTable();
        break;
      case 'tr':
      case 'caption':
        if (table) table.endRow();
        else this.doc.block(1);
        break;
      case 'td':
      case 'th':
        table?.endCell();
        break;
      case 'ul':
      case 'ol':
        this.listDepth = Math.max(0, this.listDepth - 1);
        this.flow()?.clearMarker();
        this.flow()?.block(this.listDepth > 0 ? 1 : 2);
        break;
      case 'li':
        this.flow()?.clearMarker();
        this.flow()?.block(1);
        break;
      case 'br':
        break;
      default:
        this.blockFor(name);
    }
  }

  finish(): string {
    while (this.tables.length > 0) this.closeTable();
    return this.doc.result();
  }

  /**
   * Where breaks go. Between cells there is nowhere: a stray <p> or <br> between <td>s is layout,
   * and opening a cell for it would add an empty column to the table.
   */
  private flow(): TextFlow | null {
    const table = this.tables.at(-1);
    return table ? table.openFlow() : this.doc;
  }

  private blockFor(name: string): void {
    if (PARAGRAPH_ELEMENTS.has(name)) this.flow()?.block(2);
    else if (LINE_ELEMENTS.has(name)) this.flow()?.block(1);
  }

  private openTable(): void {
    const parent = this.tables.at(-1);
    if (parent) parent.flow().block(1);
    else this.doc.block(2);
    this.tables.push(new TableBuilder());
  }

  private closeTable(): void {
    const table = this.tables.pop();
    if (table === undefined) return;
    const parent = this.tables.at(-1);
    if (parent) {
      const cell = parent.flow();
      for (const line of renderNestedTable(table.rows)) cell.text(` ${line} `);
      return;
    }
    for (const line of renderTable(table.rows)) this.doc.line(line);
    this.doc.block(2);
  }
}

/**
 * Plain text of a TextBlock's HTML, for tools and clients that show notes to readers or models.
 * Tags go, entities are decoded (non-breaking spaces become spaces), blocks become lines and
 * paragraphs one blank line apart, list items start with "- ", script and style vanish, and tables
 * become aligned columns joined by " | " with spacer columns dropped and "$", ")" and "%" glued to
 * their figures. Any input, however malformed, yields text; the cost is linear in its length.
 */
export function htmlToText(html: string): string {
  if (typeof html !== 'string' || html === '') return '';
  const renderer = new Renderer();
  tokenize(html, renderer);
  return renderer.finish();
}
