// What every back-office browser test does on a page: check it with axe, photograph it at desktop
// and phone width, sign in through the hosted page, and follow the back office's own navigation.
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, OUTPUT_DIR, ready } from './shop.js';

export interface PageCheck {
  /** The whole page, or what the viewport shows (dialogs: a full page adds nothing). */
  fullPage?: boolean;
  /** Which widths axe checks; 'none' for pages another test already checks. */
  axe?: 'both' | 'desktop' | 'none';
}

/** axe, then a screenshot at 1280 and at 390 wide: e2e/output/<file>-desktop.png and -phone.png. */
export async function checkPage(page: Page, file: string, { fullPage = true, axe = 'both' }: PageCheck = {}): Promise<void> {
  // Two tabs share the window; a tab in the background paints slowly, so photograph it in front.
  await page.bringToFront();
  await page.mouse.move(0, 0); // no hover styles where the last click was
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const [label, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]] as const) {
    await page.setViewportSize({ width, height });
    if (axe === 'both' || (axe === 'desktop' && label === 'desktop')) {
      expect(await axeViolations(page), `axe on ${file} at ${label} width`).toEqual([]);
    }
    await page.evaluate(async () => { await document.fonts.ready; window.scrollTo(0, 0); });
    await page.screenshot({ path: path.join(OUTPUT_DIR, `${file}-${label}.png`), fullPage, animations: 'disabled' });
  }
  await page.setViewportSize(size);
}

/** Fills the hosted sign-in form the page shows and sends it. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in on the site's hosted page and lands on `returnTo` in the back office. */
export async function signInToAdmin(page: Page, origin: string, email: string, password: string, returnTo = '/admin'): Promise<void> {
  await page.goto(`${origin}/auth/sign-in?returnTo=${encodeURIComponent(returnTo)}`);
  await ready(page);
  await submitSignIn(page, email, password);
  await page.waitForURL((url) => url.pathname === returnTo);
}

/** Follows a link of the back office's own navigation (not the settings tabs). */
export function adminNav(page: Page, name: string): Promise<void> {
  return page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name, exact: true }).click();
}
