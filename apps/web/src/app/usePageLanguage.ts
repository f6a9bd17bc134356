import { useEffect } from 'react';

/**
 * Marks the page as written in one language while a screen is shown, for screens that do not
 * follow the user's locale (the French-only public screens).
 */
export function usePageLanguage(lang: string): void {
  useEffect(() => {
    const root = document.documentElement;
    const previous = root.lang;
    root.lang = lang;
    return () => {
      root.lang = previous;
    };
  }, [lang]);
}
