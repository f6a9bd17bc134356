import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, normalize, sep } from 'node:path';

/**
 * The checks that keep the repository standing alone (issue 34): every relative link and anchor of README.md and
 * docs/*.md leads to a file and heading inside it, every mention of the design decisions names docs/decisions.md
 * and something that is there, and nothing points at the folders the project was first planned in.
 */

/** The design decisions, as every file names them. */
export const DECISIONS_PATH = 'docs/decisions.md';
const DECISIONS_NAME = basename(DECISIONS_PATH);

/** Folders outside the repository that once held the plan (written split so this file does not name them). */
const OUTSIDE_PATHS = [['', 'work', 'shared'].join('/'), ['..', 'shared'].join('/')];

/** This check and its test, whose patterns and faulty examples would be taken for faults. */
const SELF = ['scripts/docs-links.ts', 'scripts/docs-links.test.ts'];

const TEXT_EXTENSIONS = new Set([
  '.md',
  '.ts',
  '.tsx',
  '.mjs',
  '.js',
  '.cjs',
  '.json',
  '.css',
  '.html',
  '.sql',
  '.yml',
]);

/** The anchor GitHub gives a heading's text (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(text: string): string {
  const plain = text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Markdown lines outside fenced code blocks, with their line numbers. */
function proseLines(markdown: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push({ line, number: index + 1 });
  });
  return lines;
}

/** The anchors of a markdown file's headings, repeated headings numbered as GitHub numbers them. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The headings' texts, for citations by number or title. */
export function headingTexts(markdown: string): string[] {
  return proseLines(markdown).flatMap(({ line }) => {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    return heading ? [heading[1]!.replace(/[`*]/g, '')] : [];
  });
}

/** The targets of a markdown file's links and images (not those in code), with their line numbers. */
export function markdownLinks(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  for (const { line, number } of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line: number });
    }
    const definition = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (definition) links.push({ target: definition[1]!, line: number });
  }
  return links;
}

/** A link that leaves the repository on purpose: another site, a mail address. */
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** What is wrong with the relative links of one markdown file (path relative to the root). */
export function brokenLinks(root: string, file: string): string[] {
  const problems: string[] = [];
  const markdown = readFileSync(join(root, file), 'utf8');
  for (const { target, line } of markdownLinks(markdown)) {
    if (isExternal(target)) continue;
    const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)));
    const where = `${file}:${line} (${target})`;
    if (resolved.startsWith('..') || resolved.split(sep)[0] === '..') {
      problems.push(`${where}: leads outside the repository`);
      continue;
    }
    if (!existsSync(join(root, resolved))) {
      problems.push(`${where}: no file ${resolved}`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (extname(resolved) !== '.md' || statSync(join(root, resolved)).isDirectory()) {
      problems.push(`${where}: an anchor into a file that has no headings`);
      continue;
    }
    if (!headingAnchors(readFileSync(join(root, resolved), 'utf8')).has(decodeURIComponent(anchor))) {
      problems.push(`${where}: no heading #${anchor} in ${resolved}`);
    }
  }
  return problems;
}

/** README.md and every markdown file of docs/. */
export function documentationFiles(root: string, files: string[]): string[] {
  return files
    .filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file))
    .filter((file) => {
      return existsSync(join(root, file));
    });
}

/**
 * What is wrong with the mentions of the design decisions in one file: each must be a link to, or the path
 * docs/decisions.md, and a section it cites ("section 4", "sections 5 and 6", `#anchor`, `, "Title"`) must be
 * one of its headings.
 */
export function badDecisionCitations(file: string, text: string, decisions: string): string[] {
  const problems: string[] = [];
  const anchors = headingAnchors(decisions);
  const titles = headingTexts(decisions);
  const numbered = new Set(titles.flatMap((title) => /^(\d+)\.\s/.exec(title)?.[1] ?? []));
  for (const match of text.matchAll(/decisions\.md/g)) {
    const start = match.index;
    const line = text.slice(0, start).split('\n').length;
    const where = `${file}:${line}`;
    const before = text.slice(Math.max(0, start - 200), start);
    const linkTarget = /\]\(\s*<?([^()\s<>]*)$/.exec(before);
    if (linkTarget) {
      const resolved = normalize(join(dirname(file), `${linkTarget[1]}${DECISIONS_NAME}`));
      if (resolved.split(sep).join('/') !== DECISIONS_PATH)
        problems.push(`${where}: a link that is not ${DECISIONS_PATH}`);
    } else if (!before.endsWith('docs/')) {
      problems.push(`${where}: names ${DECISIONS_NAME} without its place, ${DECISIONS_PATH}`);
    }
    const after = text
      .slice(start + match[0].length, start + match[0].length + 120)
      .replace(/\s*\n\s*(?:\*|\/\/)?\s*/g, ' ');
    const anchor = /^#([\w-]+)/.exec(after);
    if (anchor && !anchors.has(anchor[1]!)) problems.push(`${where}: no heading #${anchor[1]} in ${DECISIONS_PATH}`);
    const sections = /^,? sections? (\d+(?:(?:-|–|, | and )\d+)*)/.exec(after);
    for (const number of sections?.[1]!.split(/-|–|, | and /) ?? []) {
      if (!numbered.has(number)) problems.push(`${where}: no section ${number} in ${DECISIONS_PATH}`);
    }
    const title = /^,? "([^"]+)"/.exec(after);
    if (title && !titles.some((heading) => heading.startsWith(title[1]!))) {
      problems.push(`${where}: no heading "${title[1]}" in ${DECISIONS_PATH}`);
    }
  }
  return problems;
}

/** Mentions of the folders outside the repository the plan was first kept in (a code import is not one). */
export function outsideMentions(file: string, text: string): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const outside of OUTSIDE_PATHS) {
      if (!line.includes(outside)) continue;
      if (outside.startsWith('..') && /(\bfrom\s+|\bimport\s*\(\s*)['"][./]*shared/.test(line)) continue;
      problems.push(`${file}:${index + 1}: mentions ${outside}`);
    }
  });
  return problems;
}

/** The repository's files, tracked or new (not ignored), as paths relative to the root. */
export function repositoryFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed.split('\0').filter((file) => file !== '' && existsSync(join(root, file)));
}

/** Every problem of the repository at `root`, one line each; none when it stands alone. */
export function standAloneProblems(root: string, files: string[] = repositoryFiles(root)): string[] {
  const decisionsFile = join(root, DECISIONS_PATH);
  if (!existsSync(decisionsFile)) return [`${DECISIONS_PATH} is missing`];
  const decisions = readFileSync(decisionsFile, 'utf8');
  const problems = documentationFiles(root, files).flatMap((file) => brokenLinks(root, file));
  for (const file of files) {
    if (!TEXT_EXTENSIONS.has(extname(file)) || file.endsWith('package-lock.json') || SELF.includes(file)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    problems.push(...badDecisionCitations(file, text, decisions), ...outsideMentions(file, text));
  }
  return problems.map((problem) => problem.split(sep).join('/'));
}

/** The root of this repository (the folder above scripts/). */
export const REPOSITORY_ROOT = join(import.meta.dirname, '..');
