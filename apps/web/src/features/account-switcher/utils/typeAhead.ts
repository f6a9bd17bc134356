/** Menu type-ahead (spec 01, Account switcher): typed characters accumulate and clear 350 ms after the last one. */
export const TYPE_AHEAD_RESET_MS = 350;

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/**
 * Whether a key press feeds the type-ahead: one printable character without a command modifier.
 * A space only counts inside a search already begun, so that Space still activates the focused item.
 */
export function isTypeAheadKey(event: KeyLike, buffer: string): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if ([...event.key].length !== 1) return false;
  return event.key !== ' ' || buffer !== '';
}

/** Index of the first label starting with the query, ignoring case; -1 when none does. */
export function findTypeAheadMatch(labels: readonly string[], query: string): number {
  const needle = query.toLocaleLowerCase();
  if (needle === '') return -1;
  return labels.findIndex((label) => label.trim().toLocaleLowerCase().startsWith(needle));
}

export interface TypeAheadBuffer {
  /** Adds a character and returns the whole search so far; restarts the reset delay. */
  push(char: string): string;
  clear(): void;
  readonly value: string;
}

export function createTypeAheadBuffer(delayMs = TYPE_AHEAD_RESET_MS): TypeAheadBuffer {
  let value = '';
  let timer: ReturnType<typeof setTimeout> | null = null;
  const clear = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    value = '';
  };
  return {
    push(char) {
      if (timer !== null) clearTimeout(timer);
      value += char;
      timer = setTimeout(clear, delayMs);
      return value;
    },
    clear,
    get value() {
      return value;
    },
  };
}
