// Refreshes the README's screenshots: starts the product on a fresh data folder, signs in as each
// demo user through the form and saves what the browser shows. Run: npm run screenshots
import { launchBrowser, signInThroughForm } from '../e2e/support/browser.ts';
import { startProduct } from '../e2e/support/product.ts';

const SHOTS = [
  { email: 'advertiser@demo.test', path: '/advertiser/activity', file: 'advertiser-activity.png' },
  { email: 'advertiser@demo.test', path: '/advertiser/ads', file: 'advertiser-ads.png' },
  { email: 'publisher@demo.test', path: '/publisher/installation', file: 'publisher-installation.png' },
  { email: 'publisher@demo.test', path: '/publisher/performance', file: 'publisher-performance.png' },
  { email: 'admin@demo.test', path: '/admin/ad-validation', file: 'admin-ad-validation.png' },
  { email: 'admin@demo.test', path: '/admin/activity-by-publisher', file: 'admin-activity-by-publisher.png' },
  { email: 'admin@demo.test', path: '/admin/activity-by-advertiser', file: 'admin-activity-by-advertiser.png' },
];

const product = await startProduct();
const browser = await launchBrowser();
try {
  const signin = await browser.newPage({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
  await signin.goto('/signin');
  await signin.getByLabel('Adresse e-mail').waitFor();
  await signin.screenshot({ path: 'docs/screenshots/signin.png' });
  await signin.close();
  for (const shot of SHOTS) {
    const context = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInThroughForm(page, product, shot.email);
    await page.waitForURL('**/' + shot.path.split('/')[1] + '/**');
    await page.goto(shot.path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    // The installation screen checks the install for a few seconds before showing its instructions.
    if (shot.path === '/publisher/installation') await page.getByRole('progressbar').waitFor({ state: 'detached' });
    await page.screenshot({ path: `docs/screenshots/${shot.file}` });
    await context.close();
  }
  console.log('screenshots written to docs/screenshots/');
} finally {
  await browser.close();
  await product.stop();
}
