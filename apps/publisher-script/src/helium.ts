/**
 * The Helium Ads publisher script: the one line publishers paste loads this IIFE. No dependencies, no
 * cookies, no globals. It counts a pageview by asking for the page's ads, shows each in its placement (a CSS
 * selector and a position; looked for during 2 s, then skipped) with an "Ad" label in the page's language, in
 * a box sized before the media loads (no layout shift), reports a view once 50% of the ad, rendered (an image
 * loaded, a video playing) and not covered by the page's own layers, stayed in view for 1 s (2 s for a video)
 * in a visible tab, and starts over on single-page-app navigation (a new history entry at a new address, seen
 * through the Navigation API where the browser has it; not an in-page anchor, not a replaced address), and on
 * a page restored from the back/forward cache. A prerendered page counts once it is shown. A box the page
 * takes out (a router or a framework rendering again) goes back where its placement is found. Any failure
 * (blocked, offline) is silent.
 *
 * Every publisher page loads it: its size budget (test/size.test.ts) shapes the code. Each ad is one closure
 * (no object of state), elements are made in one call, and the Navigation API and the history wrapper feed
 * one handler.
 */
// The rule the server checks too (a view beacon earlier than this after its decision is not the script's):
// bundled into the script as two numbers.
import { MIN_IN_VIEW_RATIO, MIN_VIEW_MS } from '@helium/domain/delivery/viewability';
import type { DecisionAnswer, ServedAd } from '@helium/contracts/serving';
import type * as Extras from './extras';

/** The content hash of extras.js, written in by the build (bundle.mjs). */
declare const EXTRAS_VERSION: string;

/** The part of the Navigation API the script uses (not in TypeScript's DOM types yet). */
interface NavigationLike {
  currentEntry: unknown;
  addEventListener(type: 'currententrychange', listener: (event: { navigationType: string | null }) => void): void;
}

/**
 * A shown ad. Called without argument: puts its box back if the page took it out, and checks its view. With
 * CHECK: checks its view. With RETIRE: takes its box off the page (done: its media may still finish loading,
 * detached; that is no view).
 */
type Slot = (act?: Act) => void;
const enum Act {
  CHECK = 1,
  RETIRE,
}

const doc = document;
const win = window;
// Some loaders (deferred or rewritten scripts) run it with no current script: the pasted line is then found.
const script = (doc.currentScript ||
  doc.querySelector('script[data-publisher][src*="/serve/script.js"]')) as HTMLScriptElement | null;
const publisher = script && script.src && script.dataset.publisher;
// The line pasted twice (by hand and by a plug-in) runs once: two would count each page twice. The mark is a
// registered symbol on the document, which no page code sees by accident (no global). Only a line that names a
// publisher takes it: a broken copy leaves the page to the good one.
const mark = Symbol.for('helium-ads');
if (publisher && (win as Partial<Window>).fetch && !(doc as unknown as Record<symbol, 1>)[mark]) {
  (doc as unknown as Record<symbol, 1>)[mark] = 1;
  const base = new URL(script.src).origin;
  const root = doc.documentElement;
  // The label is part of the page: in the page's language, else the visitor's.
  const french = /^fr/i.test(root.lang || navigator.language);
  const label = french ? 'Publicité' : 'Ad';
  // The page's own styles stay out of the ad, its hiding does not: an ad in a hidden part of the page (a closed
  // menu, another tab's panel) stays hidden, and counts no view. The box's children take `all:unset` instead:
  // they inherit the box's reset values (and its font, colour and visibility), set nothing else.
  const INITIAL = 'all:initial;visibility:inherit;';
  const { min, max } = Math;
  let slots: Slot[] = [];
  let page = '';
  let generation = 0;
  // The corner box: 0 free, 1 shown on this page, 2 closed by the reader (none comes back while this document
  // lives, single-page app included).
  let corner: 0 | 1 | 2 = 0;
  let pushed = false;

  /** What runs from a timer or an event: never breaks the page. */
  const safe =
    <A extends unknown[]>(run: (...args: A) => unknown) =>
    (...args: A) => {
      try {
        run(...args);
      } catch {
        // nothing on the page depends on the ads
      }
    };

  // The corner box and the history wrapper, loaded where needed (extras.ts); its address names its content.
  // Blocked or failing, nothing shows and nothing is thrown.
  const withExtras = (use: (module: typeof Extras) => unknown) =>
    import(base + '/serve/extras.js?v=' + EXTRAS_VERSION).then(use).catch(() => {});

  const whenParsed = (run: () => unknown) =>
    doc.readyState == 'loading' ? doc.addEventListener('DOMContentLoaded', run) : run();

  /** An element with these properties (`style` as text sets its inline style; `ariaLabel` names it). */
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, props: object) =>
    Object.assign(doc.createElement(tag), props);

  // A placement's element, or for the default placement the page's first empty [data-helium-slot] (blank text,
  // as in <div data-helium-slot>\n</div>, is empty too: CSS :empty would not match it). An invalid selector
  // throws: its ad is skipped (each ad is shown on its own).
  const targetOf = (ad: ServedAd) =>
    ad.selector
      ? doc.querySelector(ad.selector)
      : [...doc.querySelectorAll('[data-helium-slot]')].find(
          (slot) => !slot.children.length && !slot.textContent!.trim(),
        );

  const show = safe((ad: ServedAd, current: number, tries: number = 0): void => {
    if (current != generation) return;
    const target = targetOf(ad);
    // The element may come later (pages that render themselves, a single-page app's next page): looked for
    // again for 2 s, then a placement is skipped, and the default placement goes to the corner box (one at most).
    if (!target && tries < 10) return void setTimeout(() => show(ad, current, tries + 1), 200);
    if (!target && (ad.selector || corner)) return;
    const ratio = ad.height / ad.width;
    // At most as wide as the page's element, and as tall as 80% of the window (the corner box: 45% of its width,
    // half its height), so that half of the ad can always be in view.
    const fit = (width: string, height: number) =>
      ';max-width:' + width + ';max-width:min(' + width + ',' + height / ratio + 'vh)';
    const box = make('div', {
      // Padding, not margin: a margin of the first child would go through an empty slot and move the page.
      // Without a slot, a fixed corner box, which moves nothing on the page.
      style:
        INITIAL +
        'display:block;flex:none;position:relative;margin:0 auto;padding:8px 0;width:' +
        ad.width +
        'px;font:11px/16px sans-serif;color:#666' +
        fit('100%', 80),
    });
    // Not `all:initial`: a link keeps the browser's focus ring for keyboard users.
    const link = make('a', {
      style:
        'display:block;position:relative;margin:0;border:0;padding:' + ratio * 100 + '% 0 0;height:0;background:none',
      href: ad.click,
      target: '_blank',
      rel: 'noopener sponsored',
      ariaLabel: label,
    });
    box.append(make('span', { style: 'all:unset;display:block;padding:0 4px', textContent: label }), link);
    // Inside the element (append), or before or after it.
    const put = (target: Element | null | undefined) =>
      target && target[ad.position == 'inside' ? 'append' : ad.position](box);
    let timer: number | undefined;
    let inView = false;
    // The media is there to see: an image loaded, a video playing (not one that failed or cannot start).
    let rendered = false;
    let done = false;
    // The ad itself (without its label) is measured.
    const observer =
      win.IntersectionObserver &&
      new IntersectionObserver(
        (entries) =>
          entries.forEach((entry) => {
            inView = entry.isIntersecting && entry.intersectionRatio >= MIN_IN_VIEW_RATIO;
            check();
          }),
        { threshold: [0, MIN_IN_VIEW_RATIO, 1] },
      );
    /**
     * Seen on the page, which IntersectionObserver does not tell: shown at a size one can see (a collapsed
     * element's empty box is "in view"; measured here, as it may widen while its share stays 1), not in a part
     * hidden by CSS nor transparent (the options under their current and their first names, Chrome 105-120),
     * and not under the page's own layers (a cookie banner, a modal, a sticky header): of five points spread
     * over the part of the ad inside the layout viewport (as the rectangle and the hit test use it: not the
     * pinch-zoomed one, no scrollbar), the centre and the centres of its quarters, at least three reach the
     * ad's box when the browser hit-tests them (an element the page made transparent to the pointer does not
     * count as covering; in a shadow tree, its root hit-tests inside it).
     */
    const seen = () => {
      const rect = link.getBoundingClientRect();
      const left = max(rect.left, 0);
      const top = max(rect.top, 0);
      const width = min(rect.right, root.clientWidth) - left;
      const height = min(rect.bottom, root.clientHeight) - top;
      const hitRoot = box.getRootNode() as Document;
      return (
        rect.width >= min(ad.width, 60) &&
        (!link.checkVisibility ||
          link.checkVisibility({
            visibilityProperty: true,
            opacityProperty: true,
            checkVisibilityCSS: true,
            checkOpacity: true,
          } as CheckVisibilityOptions)) &&
        width > 0 &&
        height > 0 &&
        // In quarters: x of each point, then y of each.
        [2, 1, 3, 1, 3].filter((x, index) =>
          box.contains(hitRoot.elementFromPoint(left + (width * x) / 4, top + (height * [2, 1, 1, 3, 3][index]!) / 4)),
        ).length > 2
      );
    };
    const retire = () => {
      done = true;
      clearTimeout(timer);
      if (observer) observer.disconnect();
      box.remove();
    };
    /** Starts or stops the continuous-view timer from the ad's visibility and the tab's. */
    const check = () => {
      if (rendered && inView && doc.visibilityState == 'visible' && !done && seen())
        timer ||= setTimeout(
          safe(() => {
            if (!seen()) return ((timer = 0), check());
            done = true;
            if (observer) observer.disconnect();
            const url = base + '/serve/v';
            try {
              if (!navigator.sendBeacon(url, ad.view)) throw 0;
            } catch {
              fetch(url, { method: 'POST', body: ad.view, keepalive: true, credentials: 'omit' }).catch(() => {});
            }
          }),
          MIN_VIEW_MS[ad.kind],
        );
      else timer = clearTimeout(timer)!;
    };
    const renders = (is: boolean) =>
      safe(() => {
        rendered = is;
        check();
      });
    const video = ad.kind == 'video';
    link.append(
      make(
        video ? 'video' : 'img',
        Object.assign(
          { style: INITIAL + 'position:absolute;top:0;left:0;width:100%;height:100%' },
          video
            ? {
                muted: true,
                loop: true,
                autoplay: true,
                playsInline: true,
                poster: ad.poster || '',
                onplaying: renders(true),
                // (Not `waiting`: a short video looping waits at each start again, which is no pause.)
                onpause: renders(false),
                onerror: renders(false),
              }
            : { alt: label, onload: renders(true) },
          { src: ad.src },
        ),
      ),
    );
    if (target) put(target);
    else {
      corner = 1;
      // A box over the page's own content: the reader can close it (its view then counts only if it was done).
      withExtras(
        (module) =>
          done ||
          module.corner(box, fit, french, label, () => {
            corner = 2;
            retire();
          }),
      );
    }
    // A page that renders itself may take the box out with the element that held it: a single-page app whose
    // next page (counted already, its ad served) replaces the previous page's slot once its code has loaded, a
    // framework rendering a part of the page again. The same ad (the same decision) goes back where it belongs.
    slots.push(
      safe((act?: Act) =>
        act == Act.RETIRE ? retire() : (act || done || box.isConnected || put(targetOf(ad)), check()),
      ),
    );
    if (observer) observer.observe(link);
  });

  // The page's address: an in-page anchor (#comments) is the same page, a hash route (#/about, #!/about) is not.
  const address = () => (/^#[/!]/.test(location.hash) ? location.href : location.href.split('#')[0]!);

  // Nothing counts while the page is prerendered, also a single-page app's navigation then (it is counted once
  // the page is shown, at its final address).
  const start = safe(() => {
    if ((doc as { prerendering?: boolean }).prerendering) return;
    const here = address();
    if (here == page) return;
    page = here;
    const current = ++generation;
    if (corner < 2) corner = 0;
    slots.forEach((slot) => slot(Act.RETIRE));
    slots = [];
    fetch(
      base + '/serve/d?p=' + encodeURIComponent(publisher) + '&w=' + innerWidth + '&u=' + encodeURIComponent(page),
      {
        credentials: 'omit',
      },
    )
      .then((response) => response.json())
      // Asked before the page's body may be parsed; shown once the page's elements are there. Each on its own:
      // a placement that fails (a selector the page cannot take) leaves the others.
      .then((answer: DecisionAnswer) => whenParsed(safe(() => answer.ads.forEach((ad) => show(ad, current)))))
      .catch(() => {});
  });

  doc.addEventListener('visibilitychange', () => slots.forEach((slot) => slot(Act.CHECK)));
  // Also what IntersectionObserver does not tell: a part of the page hidden or shown again by its styles.
  setInterval(() => slots.forEach((slot) => slot()), 500);
  // Single-page apps: a new history entry at a new address is a new pageview, counted once the router is done
  // (a replace right after, a redirect, is the same page). A replaced entry is the same page under its new
  // address (a site removing its campaign parameters, a router's redirect). Told once the address changed.
  const entered = (type: string | null) => {
    if (type == 'push') {
      pushed = true;
      setTimeout(() => {
        pushed = false;
        start();
      });
    } else if (type == 'replace' && page && !pushed) page = address();
  };
  const navigation = (win as { navigation?: NavigationLike }).navigation;
  // The Navigation API sees every history change, also through a reference the router took before this script
  // loaded (which the wrapper would miss), and a navigation a router of the Navigation API takes over
  // (intercept); a navigation the page cancels changes no entry. Without a current entry (a sandboxed frame, an
  // opaque origin) it tells nothing.
  if (navigation && navigation.currentEntry)
    navigation.addEventListener('currententrychange', (event) => entered(event.navigationType));
  else withExtras((module) => module.watchHistory(entered));
  win.addEventListener('popstate', start);
  // A page restored from the back/forward cache is shown again: a new pageview, with new ads (the ones on it
  // were decided for the earlier visit).
  win.addEventListener('pageshow', (event) => {
    if (event.persisted) {
      page = '';
      start();
    }
  });
  // The viewport's width (desktop or mobile) is right once the page's viewport tag has been read: ask as soon
  // as the head is read, else when the page is parsed.
  const begin = () => (doc.body || doc.querySelector('meta[name=viewport]') ? start() : whenParsed(start));
  // A page prerendered in case the visitor opens it (speculation rules) is no pageview until it is shown: begun
  // now, it counts nothing while prerendered, and begins again once shown.
  doc.addEventListener('prerenderingchange', begin, { once: true });
  begin();
}
