/** Every leaf key of a nested catalogue, dotted (`nav.stats`), sorted. */
export function flattenKeys(catalogue: unknown, prefix = ''): string[] {
  if (catalogue === null || typeof catalogue !== 'object' || Array.isArray(catalogue)) return prefix ? [prefix] : [];
  return Object.entries(catalogue)
    .flatMap(([key, value]) => flattenKeys(value, prefix ? `${prefix}.${key}` : key))
    .sort();
}
