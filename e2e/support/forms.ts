import { expect } from 'vitest';
import type { Locator } from 'playwright-core';

/** What a field's error says, once the field is marked invalid: the texts its `aria-describedby` names. */
export async function fieldError(field: Locator): Promise<string> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  const texts = await Promise.all(ids.map((id) => field.page().locator(`[id="${id}"]`).innerText()));
  return texts.filter((text) => text.trim() !== '').join(' ');
}
