import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay';
import { useSession } from '../features/auth/api/session';
import { SignInPage } from '../features/auth/components/sign-in-page';

/**
 * Every screen but sign-in loads when it is first visited (DESIGN.md section 10), together with
 * the Mantine styles the sign-in page does not need.
 */
function page<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  return lazy(async () => {
    const [module] = await Promise.all([load(), import('./styles/pages')]);
    return { default: pick(module) };
  });
}

const ForgotPasswordPage = page(
  () => import('../features/auth/components/forgot-password-page'),
  (m) => m.ForgotPasswordPage,
);
const PublicPaymentPage = page(
  () => import('../features/payments/components/public-payment-page'),
  (m) => m.PublicPaymentPage,
);
const PortalLayout = page(
  () => import('./portal-layout'),
  (m) => m.PortalLayout,
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
const FormsPage = page(
  () => import('../features/forms/components/forms-page'),
  (m) => m.FormsPage,
);
const ComingSoonPage = page(
  () => import('../components/coming-soon-page'),
  (m) => m.ComingSoonPage,
);
const PublicComingSoonPage = page(
  () => import('../components/coming-soon-page'),
  (m) => m.PublicComingSoonPage,
);
const NotFoundPage = page(
  () => import('../components/not-found-page'),
  (m) => m.NotFoundPage,
);
const PublicNotFoundPage = page(
  () => import('../components/not-found-page'),
  (m) => m.PublicNotFoundPage,
);

/** An unknown address: inside the portal for a signed-in client, in the public frame otherwise. */
function NotFoundRoute() {
  const session = useSession();
  if (session.isPending) return <LoadingOverlay force />;
  if (!session.data) return <PublicNotFoundPage />;
  return (
    <Routes>
      <Route element={<PortalLayout />}>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** The route table of spec 1, section 2. Screens not built yet open a "coming soon" page. */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingOverlay force />}>
      <Routes>
        <Route path="/" element={<SignInPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/updatepaymentinfo" element={<PublicPaymentPage page="sms" />} />
        <Route path="/updatepaymentinformation" element={<PublicPaymentPage page="email" />} />
        <Route
          path="/newbornfinanceagreement/:id?"
          element={<PublicComingSoonPage title="Newborn Finance Agreement" />}
        />
        <Route element={<PortalLayout />}>
          <Route path="/client-information" element={<ClientInformationPage />} />
          <Route path="/client-activity" element={<ClientActivityPage />} />
          <Route path="/form-document/:id" element={<FormsPage />} />
          <Route path="/payment-information" element={<PaymentInformationPage />} />
          <Route path="/stem-cell-request/:id?" element={<ComingSoonPage title="Stem Cell Request Form" />} />
          <Route
            path="/ACT-banking-storage-plans"
            element={<ComingSoonPage title="Banking and Storage Plans" />}
          />
          <Route path="/store" element={<ComingSoonPage title="Store" />} />
          <Route path="/initial-processing" element={<ComingSoonPage title="Initial Sample Processing" />} />
          <Route
            path="/infectious-disease"
            element={<ComingSoonPage title="Client Infectious Disease Form" />}
          />
          <Route path="/client-consent" element={<ComingSoonPage title="Client Consent" />} />
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    </Suspense>
  );
}
