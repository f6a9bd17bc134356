import { parse, type Selector } from 'css-what';
import { withoutControlCharacters } from '@helium/domain';

/*
 * A placement's selector goes to publishers' pages, where the script passes it to `document.querySelector`.
 * It is parsed here with css-what (the parser of cheerio and css-select), then held to what a browser accepts
 * and what can hold an ad: css-what also reads jQuery's `<` parent combinator (so `<script>` would parse),
 * selectors that end with a combinator, pseudo-elements, and any pseudo-class name.
 */

/** The pseudo-classes a placement may use: structural and logical ones every current browser knows. */
const PSEUDO_CLASSES = new Set([
  'root',
  'empty',
  'first-child',
  'last-child',
  'only-child',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'nth-child',
  'nth-last-child',
  'nth-of-type',
  'nth-last-of-type',
  'not',
  'is',
  'where',
  'has',
  'lang',
  'dir',
  'link',
  'any-link',
]);

const COMBINATORS = new Set(['child', 'descendant', 'adjacent', 'sibling']);

/** Why one compound list (a selector between commas) is refused, or null. */
function sequenceFault(tokens: readonly Selector[], relative: boolean): string | null {
  if (tokens.length === 0) return 'an empty selector';
  const first = tokens[0]!;
  const last = tokens[tokens.length - 1]!;
  // `:has(> img)` starts with a combinator; nothing else may.
  if (COMBINATORS.has(first.type) && !relative) return 'a selector cannot start with a combinator';
  if (COMBINATORS.has(last.type)) return 'a selector cannot end with a combinator';
  for (const token of tokens) {
    switch (token.type) {
      case 'parent':
      case 'column-combinator':
        return `the combinator "${token.type === 'parent' ? '<' : '||'}" is not CSS`;
      case 'pseudo-element':
        return `the pseudo-element ::${token.name} cannot hold an ad`;
      case 'pseudo': {
        if (!PSEUDO_CLASSES.has(token.name)) return `unknown pseudo-class :${token.name}`;
        if (Array.isArray(token.data)) {
          for (const inner of token.data) {
            const fault = sequenceFault(inner, token.name === 'has');
            if (fault) return fault;
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return null;
}

/** Why a placement's CSS selector is refused, or null when it is a selector a browser's querySelector accepts. */
export function selectorFault(selector: string): string | null {
  // Control characters, and the characters of markup, never belong in a placement's selector.
  if (selector.includes('<') || withoutControlCharacters(selector) !== selector) {
    return 'it contains markup or control characters';
  }
  let parsed: Selector[][];
  try {
    parsed = parse(selector);
  } catch (error) {
    return `it does not parse (${error instanceof Error ? error.message.trim() : 'syntax error'})`;
  }
  if (parsed.length === 0) return 'an empty selector';
  for (const sequence of parsed) {
    const fault = sequenceFault(sequence, false);
    if (fault) return fault;
  }
  return null;
}
