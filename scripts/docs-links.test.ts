import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headingSlug, REPOSITORY_ROOT, standAloneProblems } from './docs-links.ts';

describe('the repository stands alone', () => {
  it('has every link and anchor of README.md and docs/ inside it, every design decision cited where it is', () => {
    expect(standAloneProblems(REPOSITORY_ROOT)).toEqual([]);
  });
});

describe('headingSlug', () => {
  it.each([
    ['1. Stack', '1-stack'],
    ['Raw events deleted after RAW_EVENT_DAYS', 'raw-events-deleted-after-raw_event_days'],
    [
      "The embedded database's 8 KB chunking, and when it can go",
      'the-embedded-databases-8-kb-chunking-and-when-it-can-go',
    ],
    ['Upload (`POST /api/advertiser/upload-file`)', 'upload-post-apiadvertiserupload-file'],
    ['Money audit (issue 32)', 'money-audit-issue-32'],
    ['Redis going away: limits counted in the process', 'redis-going-away-limits-counted-in-the-process'],
  ])('gives "%s" the anchor GitHub gives it', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });
});

describe('the checks, on a repository with faults', () => {
  const root = mkdtempSync(join(os.tmpdir(), 'helium-docs-links-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const outside = ['', 'work', 'shared', 'design'].join('/');
  const files: Record<string, string> = {
    'README.md': '[ok](docs/a.md#a-heading) [gone](docs/missing.md) ![shot](docs/shot.png)\n',
    'docs/decisions.md': '# Decisions\n\n## 1. Stack\n\n## Where it departs\n',
    'docs/shot.png': 'png',
    'docs/a.md': [
      '# A heading',
      '',
      '[fine](decisions.md#1-stack), [same file](#a-heading), [site](https://example.com/x.md)',
      '[no anchor](decisions.md#2-layout) and [no heading](#nowhere)',
      '[out](../../elsewhere.md)',
      '```',
      '[in code](not-checked.md)',
      '```',
      '',
    ].join('\n'),
    'docs/b.md': `The plan was in ${outside}/decisions.md.\n`,
    'packages/x/src/rule.ts': [
      '/** docs/decisions.md section 1, docs/decisions.md, "Where it departs" */',
      '/** decisions.md section 1 */',
      '/** docs/decisions.md sections 1 and 9 */',
      '/** docs/decisions.md, "Nothing like this" */',
      "import { keys } from '../shared/keys.ts';",
      `// read ${['..', 'shared'].join('/')}/spec first`,
      '',
    ].join('\n'),
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }

  it('names each broken link, missing anchor, misplaced citation and mention of the outside folders', () => {
    expect(standAloneProblems(root, Object.keys(files)).sort()).toEqual(
      [
        'README.md:1 (docs/missing.md): no file docs/missing.md',
        'docs/a.md:4 (decisions.md#2-layout): no heading #2-layout in docs/decisions.md',
        'docs/a.md:4 (#nowhere): no heading #nowhere in docs/a.md',
        'docs/a.md:4: no heading #2-layout in docs/decisions.md',
        'docs/a.md:5 (../../elsewhere.md): leads outside the repository',
        'docs/b.md:1: names decisions.md without its place, docs/decisions.md',
        `docs/b.md:1: mentions ${['', 'work', 'shared'].join('/')}`,
        'packages/x/src/rule.ts:2: names decisions.md without its place, docs/decisions.md',
        'packages/x/src/rule.ts:3: no section 9 in docs/decisions.md',
        'packages/x/src/rule.ts:4: no heading "Nothing like this" in docs/decisions.md',
        `packages/x/src/rule.ts:6: mentions ${['..', 'shared'].join('/')}`,
      ].sort(),
    );
  });

  it('says so when the design decisions are missing', () => {
    rmSync(join(root, 'docs/decisions.md'));
    expect(standAloneProblems(root, ['README.md'])).toEqual(['docs/decisions.md is missing']);
  });
});
