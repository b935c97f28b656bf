import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingOverlay } from '../components/loading-overlay';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { type Role, useSession } from '../lib/session';

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
const PhysicianForgotPasswordPage = page(
  () => import('../features/auth/components/physician-forgot-password-page'),
  (m) => m.PhysicianForgotPasswordPage,
);
const PublicPaymentPage = page(
  () => import('../features/payments/components/public-payment-page'),
  (m) => m.PublicPaymentPage,
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

/** A screen not built yet, with the way back to the start page of whoever is signed in. */
function RoleComingSoon({ title }: { title: string }) {
  const session = useSession();
  return session.data?.role === 'physician' ? (
    <ComingSoonPage title={title} backTo="/my-clients" backLabel="Back to My Clients" />
  ) : (
    <ComingSoonPage title={title} />
  );
}

/** The route table of spec 1, section 2. Screens not built yet open a "coming soon" page. */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingOverlay force />}>
      <Routes>
        <Route path="/" element={<SignInPage key="client" />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/physician" element={<SignInPage key="physician" portal="physician" />} />
        <Route path="/physician/forgot-password" element={<PhysicianForgotPasswordPage />} />
        <Route path="/updatepaymentinfo" element={<PublicPaymentPage page="sms" />} />
        <Route path="/updatepaymentinformation" element={<PublicPaymentPage page="email" />} />
        <Route
          path="/newbornfinanceagreement/:id?"
          element={<PublicComingSoonPage title="Newborn Finance Agreement" />}
        />
        <Route element={<SessionGate roles={CLIENT} />}>
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
        </Route>
        <Route element={<SessionGate roles={PHYSICIAN} />}>
          <Route path="/my-clients" element={<MyClientsPage />} />
        </Route>
        <Route element={<SessionGate roles={EVERYONE} />}>
          <Route path="/initial-processing" element={<RoleComingSoon title="Initial Sample Processing" />} />
          <Route
            path="/infectious-disease"
            element={<RoleComingSoon title="Client Infectious Disease Form" />}
          />
          <Route path="/client-consent" element={<RoleComingSoon title="Client Consent" />} />
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    </Suspense>
  );
}
