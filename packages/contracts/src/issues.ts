import { z } from 'zod';

/*
 * Why a field is refused, the same way on both sides (issue 36, point 2): the API's 422 lists `issues`, each naming
 * its field (`path`, dotted) with a `key` and the limit it broke (`values`); the web app checks a request with the
 * same contract schema before sending it and gets the same issues (`checkRequest`). The screen words each key in the
 * user's language (`validation.<key>` in the catalogues); `message` stays the English text for other API clients.
 */

/** Each reason a value is refused; the web catalogues have a text for each (`validation.<key>`). */
export const ISSUE_KEYS = [
  /** Empty, or missing. */
  'required',
  /** Not a number (text, NaN). */
  'number',
  'wholeNumber',
  /** `values.decimals`: more decimals than are stored. */
  'decimals',
  /** Numbers: `values.min` included, `values.min` excluded, `values.max` included, `values.max` excluded. */
  'atLeast',
  'above',
  'atMost',
  'below',
  /** Text: fewer than `values.min` characters, more than `values.max` (`values.typed` typed). */
  'tooShort',
  'tooLong',
  /** Lists: fewer than `values.min` items, more than `values.max`. */
  'tooFew',
  'tooMany',
  'email',
  'date',
  'link',
  /** Not one of the values offered. */
  'choice',
  /** Text that does not have the form its field needs (and no more precise key). */
  'format',
  'singleLine',
  'domain',
  'couponCode',
  /** Another coupon has this code. */
  'codeTaken',
  /** A coupon gives a percentage off or free credits. */
  'couponKind',
  'sharesAbove100',
  'thresholdsNotAscending',
  'cssSelector',
  /** Not a Bitcoin address (its form or its checksum). */
  'bitcoinAddress',
  /** `values.email`: no user has this e-mail. */
  'unknownUser',
  /** A web publisher needs a domain. */
  'domainNeeded',
  /** A field the call does not take. */
  'unknownField',
  /** Anything else: refused for a reason with no key. */
  'invalid',
] as const;
export type TIssueKey = (typeof ISSUE_KEYS)[number];

const isIssueKey = (key: unknown): key is TIssueKey => (ISSUE_KEYS as readonly unknown[]).includes(key);

/** The values a reason's text names: a limit, a count, an e-mail. */
export type TIssueValues = Record<string, number | string>;

/** One field at fault, as a 422 lists it and as the web app's own check finds it. */
export const ZIssueSchema = z.object({
  /** The field, dotted from the body's top (`campaign.price`, `placements.2.selector`); '' for the body itself. */
  path: z.string(),
  message: z.string(),
  key: z.enum(ISSUE_KEYS).optional(),
  values: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
});
export type TIssue = z.infer<typeof ZIssueSchema>;

/**
 * The `params` of a refinement whose reason has a key: `.refine(test, { message, ...withKey('domain') })`. The key
 * (and its values) reach the issue, so the screen words it.
 */
export const withKey = (key: TIssueKey, values?: TIssueValues) => ({ params: values ? { key, values } : { key } });

type ZodIssue = z.core.$ZodIssue & { input?: unknown };

const limit = (value: number | bigint) => Number(value);

/** The key and values of a zod issue: its code, its origin (text, number, list) and its limit. */
function reasonOf(issue: ZodIssue): { key: TIssueKey; values?: TIssueValues } {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null || issue.input === '') return { key: 'required' };
      if (issue.expected === 'int') return { key: 'wholeNumber' };
      if (issue.expected === 'number') return { key: 'number' };
      return { key: 'invalid' };
    case 'too_small':
      if (issue.origin === 'string') {
        return limit(issue.minimum) <= 1
          ? { key: 'required' }
          : { key: 'tooShort', values: { min: limit(issue.minimum) } };
      }
      if (issue.origin === 'array' || issue.origin === 'set')
        return { key: 'tooFew', values: { min: limit(issue.minimum) } };
      return { key: issue.inclusive === false ? 'above' : 'atLeast', values: { min: limit(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') {
        const values: TIssueValues = { max: limit(issue.maximum) };
        if (typeof issue.input === 'string') values.typed = issue.input.length;
        return { key: 'tooLong', values };
      }
      if (issue.origin === 'array' || issue.origin === 'set')
        return { key: 'tooMany', values: { max: limit(issue.maximum) } };
      return { key: issue.inclusive === false ? 'below' : 'atMost', values: { max: limit(issue.maximum) } };
    case 'invalid_format':
      if (issue.format === 'email') return { key: 'email' };
      if (issue.format === 'datetime' || issue.format === 'date') return { key: 'date' };
      if (issue.format === 'url') return { key: 'link' };
      return { key: 'format' };
    case 'invalid_value':
    case 'invalid_union':
      return { key: 'choice' };
    case 'unrecognized_keys':
      return { key: 'unknownField' };
    case 'custom': {
      const params = issue.params as { key?: unknown; values?: TIssueValues } | undefined;
      if (isIssueKey(params?.key))
        return params.values ? { key: params.key, values: params.values } : { key: params.key };
      return { key: 'invalid' };
    }
    default:
      return { key: 'invalid' };
  }
}

/** A zod issue as a 422 lists it: its field, its English text, its key and values (never the value sent). */
export function issueOf(issue: z.core.$ZodIssue): TIssue {
  return { path: issue.path.map(String).join('.'), message: issue.message, ...reasonOf(issue as ZodIssue) };
}

/** A request checked: its parsed value, or the issues naming each field at fault. */
export type TCheckResult<T> = { success: true; data: T } | { success: false; issues: TIssue[] };

/**
 * A request checked by its contract schema, as the API checks it: its parsed value, or the issues naming each field
 * at fault (the server parses with `reportInput`, as here, so that a missing value is told from a wrong one). The web
 * app imports it, and the schemas, from their own modules (`@helium/contracts/issues`): the bare `@helium/contracts`
 * is built for the browser without zod (apps/web/vite.config.ts), so only the screens with such a form load it.
 */
export function checkRequest<S extends z.ZodType>(schema: S, value: unknown): TCheckResult<z.output<S>> {
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, issues: parsed.error.issues.map(issueOf) };
}
