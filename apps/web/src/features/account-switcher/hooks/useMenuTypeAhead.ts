import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { createTypeAheadBuffer, findTypeAheadMatch, isTypeAheadKey } from '../utils/typeAhead.ts';

function labelOf(item: HTMLElement): string {
  return item.dataset.typeaheadLabel ?? item.getAttribute('aria-label') ?? item.textContent ?? '';
}

function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.tagName === 'INPUT' ||
      target.tagName === 'TEXTAREA' ||
      target.tagName === 'SELECT' ||
      target.isContentEditable)
  );
}

/**
 * Key handler for a Menu.Dropdown: typed characters build a search that focuses the first item whose
 * label starts with it, and the search clears 350 ms after the last key (spec 01, Account switcher).
 * It replaces Mantine's built-in type-ahead, which waits 500 ms.
 */
export function useMenuTypeAhead(opened: boolean): (event: KeyboardEvent<HTMLElement>) => void {
  const [buffer] = useState(createTypeAheadBuffer);

  useEffect(() => {
    if (!opened) buffer.clear();
    return () => buffer.clear();
  }, [opened, buffer]);

  return useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (!isTypeAheadKey(event, buffer.value) || isTextField(event.target)) return;
      // Claimed even without a match, so that Mantine's own type-ahead does not run a second search.
      event.preventDefault();
      const query = buffer.push(event.key);
      const items = Array.from(
        event.currentTarget.querySelectorAll<HTMLElement>('[data-menu-item]:not([data-disabled]):not(:disabled)'),
      );
      items[findTypeAheadMatch(items.map(labelOf), query)]?.focus();
    },
    [buffer],
  );
}
