/**
 * The frames the signed-in pages open in: the portal's name the header shows (frame-placeholder.ts;
 * none for a page of both the client and the physician portal, which may open in either), the
 * modules, relative to src/web, that every page of the frame loads with it (its gate or layout and
 * the pages' shared styles), and the call the frame makes first (its session), fetched with the page.
 */
export const PAGE_FRAMES = {
  client: {
    title: 'Client Portal',
    modules: ['app/session-gate.tsx', 'app/styles/pages.ts'],
    firstCall: '/api/pay/session',
  },
  physician: {
    title: 'Physician Portal',
    modules: ['app/session-gate.tsx', 'app/styles/pages.ts'],
    firstCall: '/api/pay/session',
  },
  'client or physician': {
    title: null,
    modules: ['app/session-gate.tsx', 'app/styles/pages.ts'],
    firstCall: '/api/pay/session',
  },
  staff: {
    title: 'Back Office',
    modules: ['app/staff-layout.tsx', 'app/styles/pages.ts'],
    firstCall: '/api/staff/session',
  },
  // A work queue's own page opens inside the queue page (/staff/queues/:key), which loads the
  // queue's code only once it has run.
  'staff queue': {
    title: 'Back Office',
    modules: [
      'app/staff-layout.tsx',
      'app/styles/pages.ts',
      'features/staff/components/staff-queue-page.tsx',
    ],
    firstCall: '/api/staff/session',
  },
} as const;

export type PageFrame = keyof typeof PAGE_FRAMES;

/**
 * The signed-in pages whose code the server names in the page it sends (DESIGN.md section 10),
 * so the browser fetches it beside the app's own file instead of after it has run: each address
 * pattern of the route table with the page's module, relative to src/web, and the frame it opens
 * in (PAGE_FRAMES). The build (vite.config.ts) turns this into the files each address needs;
 * router.tsx preloads the same pages from the same table when the app starts.
 */
export const PRELOADED_PAGES = [
  ['/client-information', 'features/client-information/components/client-information-page.tsx', 'client'],
  ['/client-activity', 'features/client-activity/components/client-activity-page.tsx', 'client'],
  ['/form-document/:id', 'features/forms/components/forms-page.tsx', 'client'],
  ['/payment-information', 'features/payments/components/payment-information-page.tsx', 'client'],
  ['/stem-cell-request/:id?', 'features/cell-request/components/stem-cell-request-page.tsx', 'client'],
  ['/ACT-banking-storage-plans', 'features/plans/components/banking-storage-plans-page.tsx', 'client'],
  ['/my-clients', 'features/physicians/components/my-clients-page.tsx', 'physician'],
  ['/client-consent', 'features/forms/components/physician-consent-page.tsx', 'physician'],
  ['/initial-processing', 'features/initial-processing/components/initial-processing-page.tsx', 'physician'],
  ['/infectious-disease', 'features/forms/components/physician-disease-page.tsx', 'physician'],
  ['/cell-requests', 'features/cell-request/components/physician-cell-requests-page.tsx', 'physician'],
  [
    '/physician/payment-information',
    'features/payments/components/physician-payment-information-page.tsx',
    'physician',
  ],
  ['/store', 'features/store/components/store-page.tsx', 'client or physician'],
  ['/staff/home', 'features/staff/components/staff-home-page.tsx', 'staff'],
  ['/staff/clients', 'features/staff/components/staff-clients-page.tsx', 'staff'],
  ['/staff/clients/:id', 'features/staff/components/staff-client-page.tsx', 'staff'],
  ['/staff/queues/checks', 'features/staff/components/staff-sample-checks-page.tsx', 'staff queue'],
  [
    '/staff/queues/samples-to-receive',
    'features/staff/components/samples-to-receive-page.tsx',
    'staff queue',
  ],
  ['/staff/queues/lab-reports', 'features/staff/components/staff-lab-reports-page.tsx', 'staff queue'],
  ['/staff/queues/vial-requests', 'features/staff/components/vial-requests-queue-page.tsx', 'staff queue'],
  ['/staff/queues/payments-in-doubt', 'features/staff/components/payments-in-doubt-page.tsx', 'staff queue'],
  ['/staff/queues/plan-checks', 'features/staff/components/plan-checks-page.tsx', 'staff queue'],
  ['/staff/queues/storage-checks', 'features/staff/components/storage-checks-page.tsx', 'staff queue'],
  ['/staff/queues/store-orders', 'features/staff/components/store-orders-queue-page.tsx', 'staff queue'],
  ['/staff/billing', 'features/staff/components/billing-page.tsx', 'staff'],
  ['/staff/admin/accounts', 'features/staff/components/staff-admin-pages.tsx', 'staff'],
  ['/staff/admin/audit', 'features/staff/components/staff-admin-pages.tsx', 'staff'],
  ['/staff/admin/calendar', 'features/staff/components/staff-admin-pages.tsx', 'staff'],
  ['/staff/admin/prices', 'features/staff/components/price-book-page.tsx', 'staff'],
] as const;

export type PreloadedPageModule = (typeof PRELOADED_PAGES)[number][1];
