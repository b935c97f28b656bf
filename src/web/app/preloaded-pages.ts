/**
 * The signed-in pages whose code the server names in the page it sends (DESIGN.md section 10),
 * so the browser fetches it beside the app's own file instead of after it has run: each address
 * pattern of the route table with the page's module, relative to src/web, and the name of the
 * portal whose frame it opens in (frame-placeholder.ts; none for a page of both). The build
 * (vite.config.ts) turns this into the files each address needs; router.tsx preloads the same
 * pages from the same table when the app starts.
 */
export const PRELOADED_PAGES = [
  [
    '/client-information',
    'features/client-information/components/client-information-page.tsx',
    'Client Portal',
  ],
  ['/client-activity', 'features/client-activity/components/client-activity-page.tsx', 'Client Portal'],
  ['/form-document/:id', 'features/forms/components/forms-page.tsx', 'Client Portal'],
  ['/payment-information', 'features/payments/components/payment-information-page.tsx', 'Client Portal'],
  ['/stem-cell-request/:id?', 'features/cell-request/components/stem-cell-request-page.tsx', 'Client Portal'],
  ['/ACT-banking-storage-plans', 'features/plans/components/banking-storage-plans-page.tsx', 'Client Portal'],
  ['/my-clients', 'features/physicians/components/my-clients-page.tsx', 'Physician Portal'],
  ['/client-consent', 'features/forms/components/physician-consent-page.tsx', 'Physician Portal'],
  [
    '/initial-processing',
    'features/initial-processing/components/initial-processing-page.tsx',
    'Physician Portal',
  ],
  ['/infectious-disease', 'features/forms/components/physician-disease-page.tsx', 'Physician Portal'],
  ['/cell-requests', 'features/cell-request/components/physician-cell-requests-page.tsx', 'Physician Portal'],
  [
    '/physician/payment-information',
    'features/payments/components/physician-payment-information-page.tsx',
    'Physician Portal',
  ],
  ['/store', 'features/store/components/store-page.tsx', null],
] as const;

export type PreloadedPageModule = (typeof PRELOADED_PAGES)[number][1];

/** What every one of those pages loads with it: the session gate and the pages' shared styles. */
export const SIGNED_IN_FRAME = ['app/session-gate.tsx', 'app/styles/pages.ts'] as const;

/** The call each of them makes first (the session), fetched with the page. */
export const SIGNED_IN_FIRST_CALL = '/api/pay/session';
