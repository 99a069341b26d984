import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { XmlScanParser } from '../../../../ingest/xbrl/xml-scan.ts';

/** Every event with what a reader can see of it: the tag as saxes shapes it, and the scope `resolve` answers from. */
function events(parser: SaxesParser<{ xmlns: true }> | XmlScanParser, doc: string, entities: Record<string, string> = {}): string[] {
  const out: string[] = [];
  Object.assign(parser.ENTITIES, entities);
  const show = (tag: SaxesTagNS) =>
    JSON.stringify({
      name: tag.name,
      prefix: tag.prefix,
      local: tag.local,
      uri: tag.uri,
      selfClosing: tag.isSelfClosing,
      ns: { ...tag.ns },
      attributes: Object.entries(tag.attributes).map(([k, a]) => [k, a.name, a.prefix, a.local, a.uri, a.value]),
      scope: ['', 'a', 'b', 'xml', 'none'].map((p) => parser.resolve(p) ?? null),
    });
  (parser as XmlScanParser).on('opentag', (tag) => out.push(`open ${show(tag)}`));
  (parser as XmlScanParser).on('closetag', (tag) => out.push(`close ${show(tag)}`));
  // text may come in several events: what readers see is the text between two tags
  (parser as XmlScanParser).on('text', (t) => (out.length > 0 && out[out.length - 1]!.startsWith('text ') ? (out[out.length - 1] += t) : out.push(`text ${t}`)));
  (parser as XmlScanParser).on('cdata', (t) => out.push(`cdata ${t}`));
  parser.write(doc);
  parser.close();
  return out;
}

const saxes = () => new SaxesParser({ xmlns: true });

describe('XmlScanParser (the package XML reader) against saxes', () => {
  it('gives the events, tags, attributes and namespace scopes saxes gives', () => {
    const docs = [
      `<?xml version="1.0" encoding="utf-8"?>\r\n<!-- made by hand -->\n<a:root xmlns:a="urn:a" xmlns="urn:default" a:x="1" y='two &amp; &#65;&#x42;'>\r\n` +
        `  <child xmlns:b="urn:b" b:z="&lt;3" flag="a\tb\nc">text &gt; more<![CDATA[ <raw> & ]]>tail</child>\r` +
        `  <b:gone xmlns:b="urn:b2"/><empty></empty><a:sub xmlns:a="urn:a2"><x a:y="q"/></a:sub>\n</a:root>\n`,
      `<!DOCTYPE html [ <!ENTITY x "y"> ]><html xmlns="http://www.w3.org/1999/xhtml"><body><p>&nbsp;&eacute;</p><br/></body></html>`,
      `<r xmlns:xml="http://www.w3.org/XML/1998/namespace"><l xml:lang="en-US">Label</l></r>`,
      `<r   attr = "v"  ><s/></r  >`,
      // plain attributes, read again from the document when a reader first asks for them
      `<r a='x "y" z' b = 'w'\n c=\n"1\t2"><s d="/>" e='>'/><t f="g"/></r>`,
      // references in the values of later tags, after tags whose values had none (the next '&' is remembered from tag to tag)
      `<r a="1"><s b="2">x &amp; y &#0065;&#160;&#8217;&#x1F600;&#128512;</s><t c="x &amp; y" d="&#60;"/><u e="3"/><v f="&lt;" g="4"/><w h="5"/></r>`,
    ];
    for (const doc of docs) {
      const html = { nbsp: '\u00a0', eacute: '\u00e9' };
      assert.deepEqual(events(new XmlScanParser(), doc, html), events(saxes(), doc, html), doc.slice(0, 60));
    }
  });

  it('rejects what saxes rejects', () => {
    const bad = [
      '<a><b></a>',
      '<a>',
      '<a></a><b></b>',
      'text<a></a>',
      '<a></a>tail',
      '<p:a></p:a>',
      '<a p:x="1"></a>',
      '<a x="1" x="2"></a>',
      '<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"></a>',
      '<a>&undefined;</a>',
      '<a>&#1;</a>',
      '<a>AT&T</a>',
      '<a>&amp;&lt; x &</a>',
      '<a x=1></a>',
      '<a x="<"></a>',
      '<a x="1"><b y="2"/>&amp;<c z="<"/></a>',
      '<a x="1"y="2"></a>',
      '<a><b$c/></a>',
      '<a><-b/></a>',
      '<a x$y="1"></a>',
      '<a x="1" .y="2"></a>',
      '<a>]]></a>',
      '<a>\u0001</a>',
      '</a>',
      '',
    ];
    for (const doc of bad) {
      assert.throws(() => events(saxes(), doc), Error, `saxes accepts ${doc}`);
      assert.throws(() => events(new XmlScanParser(), doc), Error, `accepted ${JSON.stringify(doc)}`);
    }
  });

  it('names the line and column (from 1) of the construct a rejected document failed in', () => {
    const cases: [string, RegExp][] = [
      ['<a>\n  <b x=1/></a>', /^2:3: unquoted attribute value\.$/],
      ['<a>\r\n<b>\r\n</a>', /^3:1: /],
      ['<a>ok</a>\n\ntail', /^1:10: text data outside of root node\.$/],
      ['<a>\n x \u0001</a>', /^2:4: disallowed character\.$/],
      ['<a>\n<b>&undefined;</b></a>', /^2:4: /],
      ['', /^1:1: document must contain a root element\.$/],
      ['<a>\n<b$c/></a>', /^2:1: disallowed character in tag name: "b\$c"\.$/],
      ['<a>\n<b x="1" y$z="2"/></a>', /^2:1: disallowed character in attribute name: "y\$z"\.$/],
      ['<a>&#;</a>', /^1:4: malformed character entity\.$/],
      ['<a>x &#65;&#1a;</a>', /^1:4: malformed character entity\.$/],
      ['<a>&#1114112;</a>', /^1:4: malformed character entity\.$/],
      ['<a>&amp;&lt; x &</a>', /^1:4: unterminated entity reference\.$/],
      ['<a>\n<b>&amp; &bogus; &</b></a>', /^2:4: undefined entity\.$/],
      ['<a>\n<b x="&#65;&a&b;"/></a>', /^2:1: disallowed character in entity name\.$/],
      ['<a>\n<b xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/></a>', /^2:1: duplicate attribute: \{u\}x\.$/],
    ];
    for (const [doc, want] of cases) {
      assert.throws(() => events(new XmlScanParser(), doc), (err: Error) => {
        assert.match(err.message, want, JSON.stringify(doc));
        return true;
      });
    }
  });
});
