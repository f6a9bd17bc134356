/**
 * Whether the browser's own CSS parser accepts the selector (what the publisher script will hand to
 * `querySelector`): an instant hint while typing. The server parses it again and has the last word.
 */
export function browserAcceptsSelector(selector: string): boolean {
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}
