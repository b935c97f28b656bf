import { afterEach, describe, expect, it } from 'vitest';
import { appStylesApplied } from './app-styles';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

describe('appStylesApplied', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it("applies the preloaded app stylesheet where its preload stands, before the pages' styles, and waits for it", async () => {
    document.head.innerHTML =
      '<link rel="preload" href="/assets/index-f6.css" as="style" crossorigin data-app-styles>' +
      '<link rel="stylesheet" href="/assets/pages-b2.css">';
    const applied = appStylesApplied();
    const sheets = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
    expect(sheets.map((link) => new URL(link.href).pathname)).toEqual([
      '/assets/index-f6.css',
      '/assets/pages-b2.css',
    ]);
    expect(sheets[0]?.getAttribute('crossorigin')).toBe('');
    // Nothing is drawn before the file has come.
    expect(await settled(applied)).toBe(false);
    sheets[0]?.dispatchEvent(new Event('load'));
    expect(await settled(applied)).toBe(true);
  });

  it('does not hold the app when the file fails, nor on a page that applied its styles itself', async () => {
    document.head.innerHTML =
      '<link rel="preload" href="/assets/index-f6.css" as="style" crossorigin data-app-styles>';
    const applied = appStylesApplied();
    document.head.querySelector('link[rel="stylesheet"]')?.dispatchEvent(new Event('error'));
    expect(await settled(applied)).toBe(true);

    document.head.innerHTML = '<link rel="stylesheet" crossorigin href="/assets/index-f6.css">';
    expect(await settled(appStylesApplied())).toBe(true);
    expect(document.head.querySelectorAll('link[rel="stylesheet"]')).toHaveLength(1);
  });
});
