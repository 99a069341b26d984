/**
 * Generated blocks inside hand-written Markdown: the text between
 *   <!-- BEGIN GENERATED <name> -->  and  <!-- END GENERATED <name> -->
 * belongs to a generator (`npm run docs` for the registry's tables, `npm run bench -- --docs` for
 * the performance table) and is rewritten whole; everything around it is prose. Pure string work,
 * so the staleness tests need nothing but the files.
 */

export function beginMarker(name: string): string {
  return `<!-- BEGIN GENERATED ${name} -->`;
}

export function endMarker(name: string): string {
  return `<!-- END GENERATED ${name} -->`;
}

function bounds(text: string, name: string): { from: number; to: number } {
  const begin = beginMarker(name);
  const end = endMarker(name);
  const b = text.indexOf(begin);
  const e = text.indexOf(end);
  if (b < 0 || e < 0) throw new Error(`no generated block "${name}": add the lines ${begin} and ${end} where it belongs`);
  if (text.indexOf(begin, b + 1) >= 0 || text.indexOf(end, e + 1) >= 0) throw new Error(`generated block "${name}" appears more than once`);
  if (e < b) throw new Error(`generated block "${name}" ends before it begins`);
  return { from: b + begin.length, to: e };
}

/** The block's body, without the marker lines and the newlines next to them. */
export function readBlock(text: string, name: string): string {
  const { from, to } = bounds(text, name);
  return text.slice(from, to).replace(/^\n/, '').replace(/\n$/, '');
}

/** `text` with the block's body replaced by `body` (markers kept). */
export function replaceBlock(text: string, name: string, body: string): string {
  const { from, to } = bounds(text, name);
  return `${text.slice(0, from)}\n${body.replace(/\n+$/, '')}\n${text.slice(to)}`;
}

/** A Markdown table cell: pipes escaped, line breaks flattened. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** A Markdown table from a header row and body rows. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
