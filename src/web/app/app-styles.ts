/**
 * The app's stylesheet, when the page arrived with it preloaded rather than applied (a signed-in
 * page that paints its frame first: src/server/lib/page-html.ts): applied where the preload
 * stands, so it keeps its place before the pages' styles added later, and awaited, so nothing of
 * the app is drawn unstyled. Resolves at once on a page that applied it itself (the sign-in page),
 * and also when the file fails to load (the app then shows as the browser can).
 */
export function appStylesApplied(doc: Document = document): Promise<void> {
  const preloads = [
    ...doc.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"][data-app-styles]'),
  ];
  return Promise.all(
    preloads.map(
      (preload) =>
        new Promise<void>((resolve) => {
          const sheet = doc.createElement('link');
          sheet.rel = 'stylesheet';
          sheet.crossOrigin = '';
          sheet.href = preload.href;
          sheet.addEventListener('load', () => resolve(), { once: true });
          sheet.addEventListener('error', () => resolve(), { once: true });
          preload.after(sheet);
        }),
    ),
  ).then(() => undefined);
}
