/**
 * Characters a name never holds (issue 32): the C0 controls (NUL, tab, line feed, carriage return, escape...),
 * DEL, the C1 controls (U+0080 to U+009F, the "next line" among them) and Unicode's line and paragraph
 * separators. A brand or a name with one of them breaks the lines of mails, PDF invoices, CSV exports and logs.
 * Also the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which make a text
 * read otherwise than it is stored ("eoD nhoJ" shown as "John Doe" to the admin paying a wire), and the invisible
 * zero-width space, word joiner and byte order mark (U+200B, U+2060, U+FEFF), which make a name look empty or
 * like another. The joiners U+200C and U+200D stay: Persian and Indic spelling and emoji sequences need them.
 * (`withoutControlCharacters`, delivery/addresses.ts, strips the C0 ones from what visitors' browsers send.)
 */
// eslint-disable-next-line no-control-regex
const CONTROL_OR_LINE_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]/;

/** Whether a text stays on one line and holds no control, direction or invisible character. */
export function isSingleLineText(text: string): boolean {
  return !CONTROL_OR_LINE_BREAK.test(text);
}

const LINE_BREAK = /\r?\n/g;

/** Whether a text of several lines (a postal address) holds no control, direction or invisible character. */
export function isMultiLineText(text: string): boolean {
  return isSingleLineText(text.replace(LINE_BREAK, ' '));
}
