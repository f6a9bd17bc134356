import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/**
 * Characters drawn as icons that many fonts lack (an empty box where they do): arrows, technical symbols (⏸),
 * geometric shapes (▶ ○ ◷), miscellaneous symbols and dingbats (⚠ ✓ ✕), emoji, and the emoji variation selector.
 * Icons are the SVG components of icons.tsx. Text characters stay allowed: × · … € ₿ ∞.
 */
const ICON_CHARACTERS =
  /[\u2190-\u21FF\u2300-\u23FF\u25A0-\u25FF\u2600-\u27BF\u2900-\u297F\u2B00-\u2BFF]|\uFE0F|[\u{1F000}-\u{1FAFF}]/u;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('icons', () => {
  it('are SVG: no screen draws one with an emoji or a symbol character', () => {
    const found = sourceFiles(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          ICON_CHARACTERS.test(line) ? [`${relative(SRC, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('finds such a character where there is one', () => {
    for (const symbol of ['⏸', '▶', '✓', '✕', '⚠', '◷', '○', '→', '🚀', '\u2764\uFE0F']) {
      expect(ICON_CHARACTERS.test(`{'${symbol} Paused'}`), symbol).toBe(true);
    }
    for (const text of ['300 × 250', 'Nov 22 · 2026', 'Loading…', '12,50 €', '₿0.001', 'Empty in ∞ Days']) {
      expect(ICON_CHARACTERS.test(text), text).toBe(false);
    }
  });
});
