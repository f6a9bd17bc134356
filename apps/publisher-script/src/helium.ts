/**
 * The Helium Ads publisher script: the one line publishers paste loads this IIFE. No dependencies, no
 * cookies, no globals. It counts a pageview by asking for the page's ads, shows each in its placement (a CSS
 * selector and a position; looked for during 2 s, then skipped) with an "Ad" label in the page's language, in
 * a box sized before the media loads (no layout shift), reports a view once 50% of the ad, rendered (an image
 * loaded, a video playing) and not covered by the page's own layers, stayed in view for 1 s (2 s for a video)
 * in a visible tab, and starts over on
 * single-page-app navigation (a new history entry at a new address, seen through the Navigation API where
 * the browser has it; not an in-page anchor, not a replaced address), and on a page restored from the
 * back/forward cache. A prerendered page counts once it is shown. A box
 * the page takes out (a router or a framework rendering again) goes back where its placement is found. Any
 * failure (blocked, offline) is silent.
 */
// The rule the server checks too (a view beacon earlier than this after its decision is not the script's):
// bundled into the script as two numbers.
import { MIN_IN_VIEW_RATIO, MIN_VIEW_MS } from '@helium/domain/delivery/viewability';
import type { DecisionAnswer, ServedAd } from '@helium/contracts/serving';

/** The part of the Navigation API the script uses (not in TypeScript's DOM types yet). */
interface NavigationLike {
  currentEntry: unknown;
  addEventListener(
    type: 'navigate',
    listener: (event: { navigationType: string; destination: { url: string; sameDocument: boolean } }) => void,
  ): void;
  addEventListener(type: 'navigatesuccess' | 'navigateerror', listener: () => void): void;
}

interface Slot {
  /** What was served: where the box goes again if the page takes it out (placeBack). */
  served: ServedAd;
  box: HTMLElement;
  /** The ad itself (without its label), whose share in view is measured. */
  ad: HTMLElement;
  token: string;
  ms: number;
  inView: boolean;
  /** The media is there to see: an image loaded, a video playing (not one that failed or cannot start). */
  rendered: boolean;
  timer: number;
  done: boolean;
}

(() => {
  const doc = document;
  const win = window;
  // Some loaders (deferred or rewritten scripts) run it with no current script: the pasted line is then found.
  const script = (doc.currentScript ||
    doc.querySelector('script[data-publisher][src*="/serve/script.js"]')) as HTMLScriptElement | null;
  const publisher = script && script.src && script.getAttribute('data-publisher');
  // The line pasted twice (by hand and by a plug-in) runs once: two would count each page twice. The mark is
  // a registered symbol on the document, which no page code sees by accident (no global). Only a line that
  // names a publisher takes it: a broken copy leaves the page to the good one.
  const mark = Symbol.for('helium-ads');
  if (!publisher || !win.fetch || (doc as unknown as Record<symbol, 1>)[mark]) return;
  (doc as unknown as Record<symbol, 1>)[mark] = 1;
  const base = new URL(script.src).origin;
  // The label is part of the page: in the page's language, else the visitor's.
  const french = /^fr/i.test(doc.documentElement.lang || navigator.language);
  const label = french ? 'Publicité' : 'Ad';
  const slots: Slot[] = [];
  let observer: IntersectionObserver | null = null;
  let page = '';
  let generation = 0;
  let corner = false;
  // The reader closed the corner box: none comes back while this document lives (single-page app included).
  let cornerClosed = false;
  let pushed = false;

  /** Runs what the script does from a timer or an event: never breaks the page. */
  const safely = (run: () => void) => {
    try {
      run();
    } catch {
      // nothing on the page depends on the ads
    }
  };

  // The page's own styles stay out of the ad (inline `all:initial`), its hiding does not: an ad in a hidden part
  // of the page (a closed menu, another tab's panel) stays hidden, and counts no view.
  const create = <K extends keyof HTMLElementTagNameMap>(tag: K, style: string) => {
    const element = doc.createElement(tag);
    element.style.cssText = 'all:initial;visibility:inherit;' + style;
    return element;
  };

  /**
   * Seen on the page, which IntersectionObserver does not tell: not in a part hidden by CSS nor transparent
   * (the options under their current and their first names, Chrome 105-120), and shown at a size one can see
   * (a collapsed element's empty box is "in view"; measured here, as it may widen while its share stays 1).
   */
  const visible = (slot: Slot) =>
    slot.ad.getBoundingClientRect().width >= Math.min(slot.served.width, 60) &&
    (!slot.ad.checkVisibility ||
      slot.ad.checkVisibility({
        visibilityProperty: true,
        opacityProperty: true,
        checkVisibilityCSS: true,
        checkOpacity: true,
      } as CheckVisibilityOptions)) &&
    uncovered(slot);

  /**
   * Not hidden under the page's own layers (a cookie banner, a modal, a sticky header): of five points spread
   * over the part of the ad inside the window, at least three reach the ad's box when the browser hit-tests
   * them (an element the page made transparent to the pointer does not count as covering).
   */
  const uncovered = (slot: Slot) => {
    const rect = slot.ad.getBoundingClientRect();
    const left = Math.max(rect.left, 0);
    const top = Math.max(rect.top, 0);
    // The layout viewport, as the rectangle and the hit test use it (not the pinch-zoomed one, no scrollbar).
    const width = Math.min(rect.right, doc.documentElement.clientWidth) - left;
    const height = Math.min(rect.bottom, doc.documentElement.clientHeight) - top;
    // In a shadow tree, its root hit-tests inside it (the document would answer the host).
    const root = slot.box.getRootNode() as Document;
    let seen = 0;
    // The centre, then the centres of the four quarters.
    for (const [x, y] of [
      [0.5, 0.5],
      [0.25, 0.25],
      [0.75, 0.25],
      [0.25, 0.75],
      [0.75, 0.75],
    ] as const) {
      const hit = width > 0 && height > 0 && root.elementFromPoint(left + width * x, top + height * y);
      if (hit && slot.box.contains(hit)) seen++;
    }
    return seen > 2;
  };

  const report = (slot: Slot) => {
    if (slot.done) return;
    slot.done = true;
    observer?.unobserve(slot.ad);
    const url = base + '/serve/v';
    try {
      if (!navigator.sendBeacon(url, slot.token)) throw 0;
    } catch {
      fetch(url, { method: 'POST', body: slot.token, keepalive: true, credentials: 'omit' }).catch(() => {});
    }
  };

  /** Starts or stops each slot's continuous-view timer from its visibility and the tab's. */
  const check = (slot: Slot) => {
    const counting = slot.rendered && slot.inView && doc.visibilityState === 'visible' && !slot.done && visible(slot);
    if (counting && !slot.timer)
      slot.timer = win.setTimeout(
        () => safely(() => (visible(slot) ? report(slot) : ((slot.timer = 0), check(slot)))),
        slot.ms,
      );
    if (!counting && slot.timer) {
      clearTimeout(slot.timer);
      slot.timer = 0;
    }
  };

  /** Takes a slot's box off the page. Done: its media may still finish loading, detached; that is no view. */
  const retire = (slot: Slot) => {
    slot.done = true;
    clearTimeout(slot.timer);
    slot.box.remove();
  };

  const clear = () => {
    corner = false;
    observer?.disconnect();
    slots.splice(0).forEach(retire);
  };

  // A placement's element, or for the default placement the page's first empty [data-helium-slot] (blank
  // text, as in <div data-helium-slot>\n</div>, is empty too: CSS :empty would not match it).
  const targetOf = (ad: ServedAd): Element | null => {
    try {
      return ad.selector
        ? doc.querySelector(ad.selector)
        : Array.from(doc.querySelectorAll('[data-helium-slot]')).find(
            (slot) => !slot.children.length && !slot.textContent!.trim(),
          ) || null;
    } catch {
      return null; // an invalid selector: no such element
    }
  };

  const place = (box: HTMLElement, ad: ServedAd, target: Element) =>
    ad.position === 'before' ? target.before(box) : ad.position === 'after' ? target.after(box) : target.append(box);

  // A page that renders itself may take the box out with the element that held it: a single-page app whose
  // next page (counted already, its ad served) replaces the previous page's slot once its code has loaded, a
  // framework rendering a part of the page again. The same ad (the same decision) goes back where it belongs.
  const placeBack = () =>
    slots.forEach((slot) => {
      if (slot.done || slot.box.isConnected) return;
      const target = targetOf(slot.served);
      if (target) place(slot.box, slot.served, target);
    });

  const show = (ad: ServedAd, current: number, tries = 0): void => {
    if (current !== generation) return;
    const target = targetOf(ad);
    // The element may come later (pages that render themselves, a single-page app's next page): looked for
    // again for 2 s, then a placement is skipped, and the default placement goes to the corner box (one at most).
    if (!target && tries < 10) return void win.setTimeout(() => safely(() => show(ad, current, tries + 1)), 200);
    if (!target && (ad.selector || corner || cornerClosed)) return;
    const ratio = ad.height / ad.width;
    // At most as wide as the page's element, and as tall as 80% of the window (the corner box: 45% of its width,
    // half its height), so that half of the ad can always be in view.
    const fit = (width: string, height: number) =>
      ';max-width:' + width + ';max-width:min(' + width + ',' + height / ratio + 'vh)';
    const box = create(
      'div',
      // Padding, not margin: a margin of the first child would go through an empty slot and move the page.
      'display:block;flex:none;position:relative;margin:0 auto;padding:8px 0;width:' +
        ad.width +
        'px;font:11px/16px sans-serif;color:#666' +
        fit('100%', 80),
    );
    if (!target) {
      // The default placement on a page without a slot: a fixed corner box, which moves nothing on the page.
      corner = true;
      box.style.cssText +=
        ';position:fixed;right:8px;bottom:8px;padding:0;z-index:2147483000;background:#fff;box-shadow:0 1px 6px rgba(0,0,0,.3)' +
        fit('45vw', 50);
      doc.body.appendChild(box);
    } else place(box, ad, target);
    const tag = create('span', 'display:block;padding:0 4px;font:inherit;color:inherit');
    tag.textContent = label;
    // Not `all:initial`: a link keeps the browser's focus ring for keyboard users.
    const link = doc.createElement('a');
    link.style.cssText =
      'display:block;position:relative;margin:0;border:0;padding:' + ratio * 100 + '% 0 0;height:0;background:none';
    link.href = ad.click;
    link.target = '_blank';
    link.rel = 'noopener sponsored';
    link.setAttribute('aria-label', label);
    const style = 'position:absolute;top:0;left:0;width:100%;height:100%';
    const media =
      ad.kind === 'video'
        ? Object.assign(create('video', style), {
            muted: true,
            loop: true,
            autoplay: true,
            playsInline: true,
            poster: ad.poster ?? '',
          })
        : Object.assign(create('img', style), { alt: label });
    media.src = ad.src;
    link.appendChild(media);
    box.append(tag, link);
    const slot: Slot = {
      served: ad,
      box,
      ad: link,
      token: ad.view,
      ms: MIN_VIEW_MS[ad.kind],
      inView: false,
      rendered: false,
      timer: 0,
      done: false,
    };
    const rendered = (is: boolean) => () => {
      slot.rendered = is;
      safely(() => check(slot));
    };
    if (ad.kind === 'video') {
      media.addEventListener('playing', rendered(true));
      // (Not `waiting`: a short video looping waits at each start again, which is no pause.)
      media.addEventListener('pause', rendered(false));
      media.addEventListener('error', rendered(false));
    } else media.addEventListener('load', rendered(true));
    if (!target) {
      // A box over the page's own content: the reader can close it (its view then counts only if it was done).
      const close = create(
        'button',
        'position:absolute;top:0;right:0;width:24px;font:18px/24px sans-serif;color:#666;text-align:center;cursor:pointer',
      );
      close.type = 'button';
      close.textContent = '×';
      close.setAttribute('aria-label', french ? 'Fermer la publicité' : 'Close ad');
      close.onclick = () => {
        cornerClosed = true;
        retire(slot);
      };
      // `all:initial` takes the browser's focus ring away too: given back for keyboard focus.
      close.onfocus = () => safely(() => (close.style.outline = close.matches(':focus-visible') ? '2px solid' : ''));
      close.onblur = () => (close.style.outline = '');
      box.appendChild(close);
    }
    slots.push(slot);
    observer?.observe(link);
  };

  // The page's address: an in-page anchor (#comments) is the same page, a hash route (#/about, #!/about) is not.
  const address = () => (/^#[/!]/.test(location.hash) ? location.href : location.href.split('#')[0]!);

  const pageview = () => {
    const here = address();
    if (here === page) return;
    page = here;
    const current = ++generation;
    clear();
    observer = win.IntersectionObserver
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              const slot = slots.find((one) => one.ad === entry.target);
              if (!slot) continue;
              slot.inView = entry.isIntersecting && entry.intersectionRatio >= MIN_IN_VIEW_RATIO;
              check(slot);
            }
          },
          { threshold: [0, MIN_IN_VIEW_RATIO, 1] },
        )
      : null;
    fetch(
      base + '/serve/d?p=' + encodeURIComponent(publisher) + '&w=' + innerWidth + '&u=' + encodeURIComponent(page),
      {
        credentials: 'omit',
      },
    )
      .then((response) => response.json())
      .then((answer: Partial<DecisionAnswer>) => {
        // Each on its own: a placement that fails (a selector the page cannot take) leaves the others.
        const showAll = () => (answer.ads ?? []).forEach((ad) => safely(() => show(ad, current)));
        // Asked before the page's body may be parsed; shown once the page's elements are there.
        if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', showAll);
        else showAll();
      })
      .catch(() => {});
  };

  // Nothing counts while the page is prerendered, also a single-page app's navigation then (it is counted once
  // the page is shown, at its final address).
  const prerendering = () => (doc as Document & { prerendering?: boolean }).prerendering;
  const start = () => prerendering() || safely(pageview);

  doc.addEventListener('visibilitychange', () => slots.forEach(check));
  // Also what IntersectionObserver does not tell: a part of the page hidden or shown again by its styles.
  win.setInterval(
    () =>
      safely(() => {
        placeBack();
        slots.forEach(check);
      }),
    500,
  );
  // Single-page apps: a new history entry at a new address is a new pageview. A replaced entry is the same
  // page under its new address (a site removing its campaign parameters, a router's redirect).
  const pushedEntry = () => {
    // Counted once the router is done: a replaceState right after (a redirect, a state) is the same page.
    pushed = true;
    setTimeout(() => {
      pushed = false;
      start();
    });
  };
  const replacedEntry = () => {
    if (page && !pushed) page = address();
  };
  const navigation = (win as { navigation?: NavigationLike }).navigation;
  // Without a current entry (a sandboxed frame, an opaque origin) the Navigation API tells nothing.
  if (navigation?.currentEntry) {
    // The Navigation API sees every history change, also through a reference the router took before this
    // script loaded (which the wrapper below would miss). Read once the address has changed (a navigation the
    // page cancels changes nothing).
    // A router of the Navigation API itself takes over a navigation to another document (intercept): known
    // once it ended, the page still here, whether it succeeded or failed after the address changed.
    let intercepted = '';
    navigation.addEventListener('navigate', (event) =>
      safely(() => {
        intercepted = event.destination.sameDocument ? '' : event.navigationType;
        if (intercepted) return;
        if (event.navigationType === 'push') pushedEntry();
        else if (event.navigationType === 'replace') setTimeout(replacedEntry);
      }),
    );
    const ended = () =>
      safely(() => {
        if (intercepted === 'push') start();
        else if (intercepted === 'replace') replacedEntry();
        intercepted = '';
      });
    navigation.addEventListener('navigatesuccess', ended);
    navigation.addEventListener('navigateerror', ended);
  } else {
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name];
      history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
        const result = original.apply(this, args);
        if (name === 'pushState') pushedEntry();
        else replacedEntry();
        return result;
      };
    }
  }
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
  const begin = () =>
    doc.readyState !== 'loading' || doc.body || doc.querySelector('meta[name=viewport]')
      ? start()
      : doc.addEventListener('DOMContentLoaded', start);
  // A page prerendered in case the visitor opens it (speculation rules) is no pageview until it is shown.
  if (prerendering()) {
    doc.addEventListener('prerenderingchange', begin, { once: true });
  } else begin();
})();
