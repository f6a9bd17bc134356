import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('servingChanged: the one way a change reaches the serving index', () => {
  it('gives changes made before the reload starts one reload, and a change made during it another', async () => {
    const refresh = vi.spyOn(t.app.delivery.parts.index, 'refresh');
    try {
      await Promise.all([t.app.delivery.servingChanged(), t.app.delivery.servingChanged()]);
      expect(refresh).toHaveBeenCalledTimes(1);

      let releaseFirst = () => {};
      refresh.mockImplementationOnce(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
      const first = t.app.delivery.servingChanged();
      await vi.waitFor(() => expect(refresh).toHaveBeenCalledTimes(2));
      // The first reload has started (it may have read the tables before this change): another one follows.
      const second = t.app.delivery.servingChanged();
      releaseFirst();
      await Promise.all([first, second]);
      expect(refresh).toHaveBeenCalledTimes(3);
    } finally {
      refresh.mockRestore();
    }
  });

  it('answers even when the reload fails, since the change itself is saved', async () => {
    const refresh = vi.spyOn(t.app.delivery.parts.index, 'refresh').mockRejectedValueOnce(new Error('database away'));
    try {
      await expect(t.app.delivery.servingChanged()).resolves.toBeUndefined();
      await expect(t.app.delivery.servingChanged()).resolves.toBeUndefined();
      expect(refresh).toHaveBeenCalledTimes(2);
    } finally {
      refresh.mockRestore();
    }
  });
});
