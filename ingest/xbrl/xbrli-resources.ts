import type { SaxesTagNS } from 'saxes';
import type { ParsedInstance, XbrlContext } from '../../domain/xbrl.ts';
import { resolveQName } from './qnames.ts';
import { attr } from './xml-input.ts';

const XBRLI = 'http://www.xbrl.org/2003/instance';
const XBRLDI = 'http://xbrl.org/2006/xbrldi';
const LINK = 'http://www.xbrl.org/2003/linkbase';
const XLINK = 'http://www.w3.org/1999/xlink';

const byAxis = (a: { axis: string }, b: { axis: string }) => (a.axis < b.axis ? -1 : a.axis > b.axis ? 1 : 0);

/**
 * The xbrli:context, xbrli:unit and link:schemaRef elements, read the same way for an instance
 * and for an inline document's ix:header (both readers delegate here) (dimensions sorted by axis,
 * units as measure local names, "USD/shares"), so inline and extracted instance compare equal.
 * `open`/`close` return true when the element was theirs, so the inline reader skips it.
 */
export class XbrliResources {
  /** text of the element being captured; null while nothing wants text */
  private buffer: string[] | null = null;
  private context: XbrlContext | null = null;
  private axis = '';
  private unit: { id: string; target: string[]; plain: string[]; num: string[]; den: string[] } | null = null;

  constructor(
    private readonly result: ParsedInstance,
    private readonly resolve: (prefix: string) => string | undefined,
  ) {}

  text(text: string): void {
    this.buffer?.push(text);
  }

  private take(): string {
    const text = this.buffer?.join('') ?? '';
    this.buffer = null;
    return text;
  }

  open(tag: SaxesTagNS): boolean {
    const { uri, local } = tag;
    if (this.context) {
      if (uri === XBRLI && (local === 'identifier' || local === 'startDate' || local === 'endDate' || local === 'instant')) this.buffer = [];
      else if (uri === XBRLDI && (local === 'explicitMember' || local === 'typedMember')) {
        this.axis = resolveQName(attr(tag, '', 'dimension') ?? '', this.resolve);
        // a typed member's value is the text of the domain element inside it
        this.buffer = [];
      }
      return true;
    }
    if (this.unit) {
      if (uri !== XBRLI) return true;
      if (local === 'measure') this.buffer = [];
      else if (local === 'unitNumerator') this.unit.target = this.unit.num;
      else if (local === 'unitDenominator') this.unit.target = this.unit.den;
      return true;
    }
    if (uri === XBRLI) {
      if (local === 'context') this.context = { id: attr(tag, '', 'id') ?? '', entity: '', start: null, end: '', dimensions: [] };
      else if (local === 'unit') {
        const plainList: string[] = [];
        this.unit = { id: attr(tag, '', 'id') ?? '', target: plainList, plain: plainList, num: [], den: [] };
      }
      return true;
    }
    if (uri === LINK) {
      if (local === 'schemaRef') this.result.schemaRef ??= attr(tag, XLINK, 'href');
      return true;
    }
    return false;
  }

  close(tag: SaxesTagNS): boolean {
    const { uri, local } = tag;
    if (this.context) {
      this.closeInContext(this.context, uri, local);
      return true;
    }
    if (this.unit) {
      if (uri !== XBRLI) return true;
      if (local === 'measure') {
        const m = this.take().trim();
        this.unit.target.push(m.slice(m.indexOf(':') + 1));
      } else if (local === 'unit') {
        const { id, plain: p, num, den } = this.unit;
        // several measures multiply (rare); SEC writes a ratio as numerator/denominator
        const measure = num.length > 0 ? `${num.join('*')}/${den.join('*')}` : p.join('*');
        this.result.units.set(id, { id, measure });
        this.unit = null;
      }
      return true;
    }
    return uri === XBRLI || uri === LINK;
  }

  private closeInContext(ctx: XbrlContext, uri: string, local: string): void {
    if (uri === XBRLI) {
      if (local === 'identifier') ctx.entity = this.take().trim();
      else if (local === 'startDate') ctx.start = this.take().trim();
      else if (local === 'endDate' || local === 'instant') ctx.end = this.take().trim();
      else if (local === 'context') {
        ctx.dimensions.sort(byAxis);
        this.result.contexts.set(ctx.id, ctx);
        this.context = null;
      }
    } else if (uri === XBRLDI) {
      // the member QName resolves against the declarations in scope at the member, still visible at its close
      if (local === 'explicitMember') ctx.dimensions.push({ axis: this.axis, member: resolveQName(this.take(), this.resolve), typed: null });
      else if (local === 'typedMember') ctx.dimensions.push({ axis: this.axis, member: null, typed: this.take().trim() });
    }
  }
}
