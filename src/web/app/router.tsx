import { type ComponentType, lazy, Suspense } from 'react';
import { matchPath, Route, Routes } from 'react-router';
import { dateFormatterFor } from '../../domain/dates';
import { LoadingOverlay } from '../components/loading-overlay';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { clientQuery } from '../lib/client-record';
import { queryClient } from '../lib/query-client';
import { type Role, sessionQuery, useSession } from '../lib/session';
import { PendingFrame } from './pending-frame';
import { type PageFrame, PRELOADED_PAGES, type PreloadedPageModule } from './preloaded-pages';

/**
 * Every screen but sign-in loads when it is first visited (DESIGN.md section 10), together with
 * the Mantine styles the sign-in page does not need.
 */
function page<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  let loading: Promise<[M, unknown]> | undefined;
  const preload = () => {
    loading ??= Promise.all([load(), import('./styles/pages')]);
    return loading;
  };
  const Page = lazy(async () => {
    const [module] = await preload();
    return { default: pick(module) };
  });
  return Object.assign(Page, { preload });
}

const ForgotPasswordPage = page(
  () => import('../features/auth/components/forgot-password-page'),
  (m) => m.ForgotPasswordPage,
);
const PhysicianForgotPasswordPage = page(
  () => import('../features/auth/components/physician-forgot-password-page'),
  (m) => m.PhysicianForgotPasswordPage,
);
const PublicPaymentPage = page(
  () => import('../features/payments/components/public-payment-page'),
  (m) => m.PublicPaymentPage,
);
const NewbornAgreementPage = page(
  () => import('../features/forms/components/newborn-agreement-page'),
  (m) => m.NewbornAgreementPage,
);
const DeliveryConfirmationPage = page(
  () => import('../features/cell-request/components/delivery-confirmation-page'),
  (m) => m.DeliveryConfirmationPage,
);
const ObjectionPage = page(
  () => import('../features/cell-request/components/objection-page'),
  (m) => m.ObjectionPage,
);
const SessionGate = page(
  () => import('./session-gate'),
  (m) => m.SessionGate,
);
const MyClientsPage = page(
  () => import('../features/physicians/components/my-clients-page'),
  (m) => m.MyClientsPage,
);
const ClientInformationPage = page(
  () => import('../features/client-information/components/client-information-page'),
  (m) => m.ClientInformationPage,
);
const ClientActivityPage = page(
  () => import('../features/client-activity/components/client-activity-page'),
  (m) => m.ClientActivityPage,
);
const PaymentInformationPage = page(
  () => import('../features/payments/components/payment-information-page'),
  (m) => m.PaymentInformationPage,
);
const PhysicianPaymentInformationPage = page(
  () => import('../features/payments/components/physician-payment-information-page'),
  (m) => m.PhysicianPaymentInformationPage,
);
const FormsPage = page(
  () => import('../features/forms/components/forms-page'),
  (m) => m.FormsPage,
);
const PhysicianConsentPage = page(
  () => import('../features/forms/components/physician-consent-page'),
  (m) => m.PhysicianConsentPage,
);
const InitialProcessingPage = page(
  () => import('../features/initial-processing/components/initial-processing-page'),
  (m) => m.InitialProcessingPage,
);
const WelcomePage = page(
  () => import('../features/auth/components/welcome-page'),
  (m) => m.WelcomePage,
);
const PhysicianDiseasePage = page(
  () => import('../features/forms/components/physician-disease-page'),
  (m) => m.PhysicianDiseasePage,
);
const StemCellRequestPage = page(
  () => import('../features/cell-request/components/stem-cell-request-page'),
  (m) => m.StemCellRequestPage,
);
const PhysicianCellRequestsPage = page(
  () => import('../features/cell-request/components/physician-cell-requests-page'),
  (m) => m.PhysicianCellRequestsPage,
);
const BankingStoragePlansPage = page(
  () => import('../features/plans/components/banking-storage-plans-page'),
  (m) => m.BankingStoragePlansPage,
);
const StorePage = page(
  () => import('../features/store/components/store-page'),
  (m) => m.StorePage,
);
const StaffSignInPage = page(
  () => import('../features/staff/components/staff-sign-in-page'),
  (m) => m.StaffSignInPage,
);
const StaffLayout = page(
  () => import('./staff-layout'),
  (m) => m.StaffLayout,
);
const StaffHomePage = page(
  () => import('../features/staff/components/staff-home-page'),
  (m) => m.StaffHomePage,
);
const StaffClientsPage = page(
  () => import('../features/staff/components/staff-clients-page'),
  (m) => m.StaffClientsPage,
);
const StaffQueuePage = page(
  () => import('../features/staff/components/staff-queue-page'),
  (m) => m.StaffQueuePage,
);
const StaffClientPage = page(
  () => import('../features/staff/components/staff-client-page'),
  (m) => m.StaffClientPage,
);
const BillingPage = page(
  () => import('../features/staff/components/billing-page'),
  (m) => m.BillingPage,
);
const StaffAccountsPage = page(
  () => import('../features/staff/components/staff-admin-pages'),
  (m) => m.StaffAccountsPage,
);
const AuditSearchPage = page(
  () => import('../features/staff/components/staff-admin-pages'),
  (m) => m.AuditSearchPage,
);
const ShippingCalendarPage = page(
  () => import('../features/staff/components/staff-admin-pages'),
  (m) => m.ShippingCalendarPage,
);
const PriceBookPage = page(
  () => import('../features/staff/components/price-book-page'),
  (m) => m.PriceBookPage,
);
const NotFoundPage = page(
  () => import('../components/not-found-page'),
  (m) => m.NotFoundPage,
);
const PublicNotFoundPage = page(
  () => import('../components/not-found-page'),
  (m) => m.PublicNotFoundPage,
);

const CLIENT: readonly Role[] = ['client'];
const PHYSICIAN: readonly Role[] = ['physician'];
const EVERYONE: readonly Role[] = ['client', 'physician'];

/** An unknown address: inside the portal for someone signed in, in the public frame otherwise. */
function NotFoundRoute() {
  const session = useSession();
  if (session.isPending) return <LoadingOverlay force />;
  if (!session.data) return <PublicNotFoundPage />;
  return (
    <Routes>
      <Route element={<SessionGate roles={EVERYONE} />}>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** The signed-in pages a first visit can start loading before React renders, by module. */
const preloadedPages: Record<PreloadedPageModule, { preload(): Promise<unknown> }> = {
  'features/client-information/components/client-information-page.tsx': ClientInformationPage,
  'features/client-activity/components/client-activity-page.tsx': ClientActivityPage,
  'features/forms/components/forms-page.tsx': FormsPage,
  'features/payments/components/payment-information-page.tsx': PaymentInformationPage,
  'features/cell-request/components/stem-cell-request-page.tsx': StemCellRequestPage,
  'features/plans/components/banking-storage-plans-page.tsx': BankingStoragePlansPage,
  'features/physicians/components/my-clients-page.tsx': MyClientsPage,
  'features/forms/components/physician-consent-page.tsx': PhysicianConsentPage,
  'features/initial-processing/components/initial-processing-page.tsx': InitialProcessingPage,
  'features/forms/components/physician-disease-page.tsx': PhysicianDiseasePage,
  'features/cell-request/components/physician-cell-requests-page.tsx': PhysicianCellRequestsPage,
  'features/payments/components/physician-payment-information-page.tsx': PhysicianPaymentInformationPage,
  'features/store/components/store-page.tsx': StorePage,
  'features/staff/components/staff-home-page.tsx': StaffHomePage,
  'features/staff/components/staff-clients-page.tsx': StaffClientsPage,
  'features/staff/components/staff-client-page.tsx': StaffClientPage,
  // A work queue's own page (queue-pages.tsx loads it when the queue page shows it).
  'features/staff/components/staff-sample-checks-page.tsx': {
    preload: () => import('../features/staff/components/staff-sample-checks-page'),
  },
  'features/staff/components/samples-to-receive-page.tsx': {
    preload: () => import('../features/staff/components/samples-to-receive-page'),
  },
  'features/staff/components/staff-lab-reports-page.tsx': {
    preload: () => import('../features/staff/components/staff-lab-reports-page'),
  },
  'features/staff/components/vial-requests-queue-page.tsx': {
    preload: () => import('../features/staff/components/vial-requests-queue-page'),
  },
  'features/staff/components/payments-in-doubt-page.tsx': {
    preload: () => import('../features/staff/components/payments-in-doubt-page'),
  },
  'features/staff/components/plan-checks-page.tsx': {
    preload: () => import('../features/staff/components/plan-checks-page'),
  },
  'features/staff/components/storage-checks-page.tsx': {
    preload: () => import('../features/staff/components/storage-checks-page'),
  },
  'features/staff/components/store-orders-queue-page.tsx': {
    preload: () => import('../features/staff/components/store-orders-queue-page'),
  },
  'features/staff/components/billing-page.tsx': BillingPage,
  'features/staff/components/staff-admin-pages.tsx': StaffAccountsPage,
  'features/staff/components/price-book-page.tsx': PriceBookPage,
};

/** The client's and the physician's frame: the session gate's code and the session, then the signed-in client's record. */
function preloadSessionGate() {
  void SessionGate.preload().catch(() => {});
  void queryClient
    .fetchQuery(sessionQuery)
    .then((session) => {
      if (session?.role === 'client') void queryClient.prefetchQuery(clientQuery(session.id));
    })
    .catch(() => {});
}

/**
 * The back office's frame: its code and the staff session (its query comes with the frame's code,
 * not in the app's own file that every page loads).
 */
function preloadStaffLayout() {
  void StaffLayout.preload().catch(() => {});
  void import('../features/staff/api/staff-session')
    .then(({ staffSessionQuery }) => queryClient.fetchQuery(staffSessionQuery))
    .catch(() => {});
}

/** What each frame of PAGE_FRAMES loads for a page opened in it. */
const preloadedFrames: Record<PageFrame, () => void> = {
  client: preloadSessionGate,
  physician: preloadSessionGate,
  'client or physician': preloadSessionGate,
  staff: preloadStaffLayout,
  'staff queue': () => {
    preloadStaffLayout();
    void StaffQueuePage.preload().catch(() => {});
  },
};

/**
 * A signed-in page opened directly (a reload, a link, the start page after sign-in in a new tab):
 * its code, its frame's (the session gate's, the back office's) and the session itself load at
 * once, side by side, and the signed-in client's record as soon as the session names the client,
 * instead of one after the other as rendering reaches each of them.
 */
export function preloadRoute(pathname: string) {
  const entry = PRELOADED_PAGES.find(([pattern]) =>
    matchPath({ path: pattern, caseSensitive: false }, pathname),
  );
  if (!entry) return;
  preloadedFrames[entry[2]]();
  void preloadedPages[entry[1]].preload().catch(() => {});
  // The signed-in pages show dates in the bank's time zone: its formatter is built in a task of
  // its own while the session and the record load, not in the middle of the page's first render.
  window.setTimeout(() => dateFormatterFor(), 0);
}

/** The route table of spec 1, section 2; an unknown address opens "Page not found". */
export function AppRoutes() {
  return (
    <Suspense fallback={<PendingFrame />}>
      <Routes>
        <Route path="/" element={<SignInPage key="client" />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/physician" element={<SignInPage key="physician" portal="physician" />} />
        <Route path="/physician/forgot-password" element={<PhysicianForgotPasswordPage />} />
        <Route path="/welcome/:token" element={<WelcomePage />} />
        <Route path="/updatepaymentinfo" element={<PublicPaymentPage page="sms" />} />
        <Route path="/updatepaymentinformation" element={<PublicPaymentPage page="email" />} />
        <Route path="/newbornfinanceagreement/:id?" element={<NewbornAgreementPage />} />
        <Route path="/delivery-confirmation/:token?" element={<DeliveryConfirmationPage />} />
        <Route path="/object/:token?" element={<ObjectionPage />} />
        <Route path="/staff" element={<StaffSignInPage />} />
        <Route element={<StaffLayout />}>
          <Route path="/staff/home" element={<StaffHomePage />} />
          <Route path="/staff/clients" element={<StaffClientsPage />} />
          <Route path="/staff/clients/:id" element={<StaffClientPage />} />
          <Route path="/staff/queues/:key" element={<StaffQueuePage />} />
          <Route path="/staff/billing" element={<BillingPage />} />
          <Route path="/staff/admin/accounts" element={<StaffAccountsPage />} />
          <Route path="/staff/admin/audit" element={<AuditSearchPage />} />
          <Route path="/staff/admin/calendar" element={<ShippingCalendarPage />} />
          <Route path="/staff/admin/prices" element={<PriceBookPage />} />
        </Route>
        <Route element={<SessionGate roles={CLIENT} />}>
          <Route path="/client-information" element={<ClientInformationPage />} />
          <Route path="/client-activity" element={<ClientActivityPage />} />
          <Route path="/form-document/:id" element={<FormsPage />} />
          <Route path="/payment-information" element={<PaymentInformationPage />} />
          <Route path="/stem-cell-request/:id?" element={<StemCellRequestPage />} />
          <Route path="/ACT-banking-storage-plans" element={<BankingStoragePlansPage />} />
        </Route>
        <Route element={<SessionGate roles={PHYSICIAN} />}>
          <Route path="/my-clients" element={<MyClientsPage />} />
          <Route path="/client-consent" element={<PhysicianConsentPage />} />
          <Route path="/initial-processing" element={<InitialProcessingPage />} />
          <Route path="/infectious-disease" element={<PhysicianDiseasePage />} />
          <Route path="/cell-requests" element={<PhysicianCellRequestsPage />} />
          <Route path="/physician/payment-information" element={<PhysicianPaymentInformationPage />} />
          <Route path="/request-cells" element={<StemCellRequestPage />} />
        </Route>
        <Route element={<SessionGate roles={EVERYONE} />}>
          <Route path="/store" element={<StorePage />} />
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    </Suspense>
  );
}
