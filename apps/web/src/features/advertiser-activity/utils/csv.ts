/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return before one) is
 * prefixed with an apostrophe, so that a page address an outsider chose cannot run in the advertiser's
 * spreadsheet (OWASP "CSV injection"). Numbers are numbers and stay as they are.
 */
function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** CSV export of the activity tables (RFC 4180: comma separated, quoted when needed, CRLF lines). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : typeof value === 'number' ? String(value) : neutralised(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** The byte order mark that makes Excel read the file as UTF-8 (accents, the euro and bitcoin signs). */
export const UTF8_BOM = '\uFEFF';

/** The file's content: the BOM, then the CSV text. */
export function csvBlob(csv: string): Blob {
  return new Blob([UTF8_BOM, csv], { type: 'text/csv;charset=utf-8' });
}

/** Offers the text as a file download. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(csvBlob(csv));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
