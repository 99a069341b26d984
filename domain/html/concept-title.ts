/** Titles of notes from their concept names, where the filing gives no label. */

/** Joining words written in lower case inside a title. */
const SMALL_WORDS = new Set(['and', 'of', 'the', 'to', 'for', 'in', 'by', 'on', 'or', 'at', 'as', 'from', 'with']);
/** A lower-case joining word glued to the end of a word, as in aapl:SegmentInformationandGeographicData. */
const GLUED_JOINER = /^([A-Z]?[a-z]{3,})(and|of|the|to|for|in|by)$/;
/**
 * Endings that make the glued reading safe: "Informationand" splits, while words that merely end
 * in a joining word ("Thousand", "Certain", "Standby", "Thereof") keep their letters.
 */
const WORD_ENDING = /(?:tion|sion|ing|ment|ity|ities|ness|[ae]nce|ure|ule|ght|al|[eo]r|ary|aries|ies|ive|ics|[^su]s)$/;
const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+(?:[A-Z](?![a-z]))?/g;

function splitGluedJoiner(word: string): string[] {
  const m = GLUED_JOINER.exec(word);
  if (m === null || !WORD_ENDING.test(m[1]!)) return [word];
  return [m[1]!, m[2]!];
}

function isCapitalized(word: string): boolean {
  return /^[A-Z][a-z]*$/.test(word);
}

/**
 * A readable title from a TextBlock concept name, for disclosures that come without a label:
 * `us-gaap:IncomeTaxDisclosureTextBlock` -> "Income Tax Disclosure". The prefix and the trailing
 * "TextBlock" go, camel case splits into words (acronyms such as "USGAAP" stay whole), joining
 * words after the first are lower-cased, and a doubled last word ("PolicyPolicy") is written once.
 */
export function titleFromConcept(concept: string): string {
  if (typeof concept !== 'string') return '';
  const local = concept.slice(concept.lastIndexOf(':') + 1);
  const stem = local.replace(/text ?block$/i, '') || local;
  const words = (stem.match(WORD) ?? []).flatMap(splitGluedJoiner);
  const titled: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    if (titled.length === 0) titled.push(word.charAt(0).toUpperCase() + word.slice(1));
    else titled.push(SMALL_WORDS.has(lower) && (isCapitalized(word) || word === lower) ? lower : word);
  }
  // us-gaap names policies "...PolicyPolicyTextBlock"; only a doubled last word is such an echo
  // ("CashCashEquivalents" means "Cash, Cash Equivalents")
  if (titled.length > 1 && titled.at(-1)!.toLowerCase() === titled.at(-2)!.toLowerCase()) titled.pop();
  return titled.join(' ');
}
