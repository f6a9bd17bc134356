/**
 * What the publisher script (helium.ts) loads only on the pages that need it, as one module
 * (`/serve/extras.js`, cached a year under its content hash): the corner box, for a default placement on a page
 * without a `[data-helium-slot]`, and the history wrapper, for browsers without the Navigation API. Every page
 * pays for the script; few pay for these, so they stay out of its size budget (docs/decisions.md, "The publisher
 * script").
 */

/**
 * Makes the ad's box a fixed corner box over the page, with a button that closes it (`onClose`) named in the label's language, and puts it on
 * the page. `fit` gives the box's largest width, as for a box in a slot.
 */
export const corner = (
  box: HTMLElement,
  fit: (width: string, height: number) => string,
  french: boolean,
  label: string,
  onClose: () => void,
) => {
  // 45% of the window's width, half its height: half of the ad can always be in view.
  box.style.cssText +=
    ';position:fixed;right:8px;bottom:8px;padding:0;z-index:2147483000;background:#fff;box-shadow:0 1px 6px rgba(0,0,0,.3)' +
    fit('45vw', 50);
  const close = Object.assign(document.createElement('button'), {
    style:
      'all:unset;position:absolute;top:0;right:0;width:24px;font:18px/24px sans-serif;text-align:center;cursor:pointer',
    type: 'button',
    textContent: '×',
    onclick: onClose,
    // `all:unset` takes the browser's focus ring away too: given back for keyboard focus.
    onfocus: () => {
      try {
        close.style.outline = close.matches(':focus-visible') ? '2px solid' : '';
      } catch {
        // a browser without :focus-visible keeps no ring: nothing on the page depends on it
      }
    },
    onblur: () => (close.style.outline = ''),
    ariaLabel: (french ? 'Fermer la ' : 'Close ') + label.toLowerCase(),
  });
  box.append(close);
  document.body.append(box);
};

/**
 * Tells `entered` of every `pushState` ('push') and `replaceState` ('replace') once the address changed, for
 * browsers without the Navigation API. It sees only the calls made through `history` after it is installed (a
 * router's own earlier reference, or a push before this module arrived, is missed: that pageview is not counted).
 */
export const watchHistory = (entered: (type: string) => void) =>
  (['pushState', 'replaceState'] as const).forEach((name) => {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      entered(name.slice(0, -5)); // push, replace
      return result;
    };
  });
