/**
 * Characters a name never holds (issue 32): the C0 controls (NUL, tab, line feed, carriage return, escape...),
 * DEL, the C1 controls (U+0080 to U+009F, the "next line" among them) and Unicode's line and paragraph
 * separators. A brand or a name with one of them breaks the lines of mails, PDF invoices, CSV exports and logs.
 * (`withoutControlCharacters`, delivery/addresses.ts, strips the C0 ones from what visitors' browsers send.)
 */
// eslint-disable-next-line no-control-regex
const CONTROL_OR_LINE_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether a text stays on one line and holds no control character. */
export function isSingleLineText(text: string): boolean {
  return !CONTROL_OR_LINE_BREAK.test(text);
}
