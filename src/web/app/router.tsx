import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { ComingSoonPage } from '../components/coming-soon-page';
import { LoadingOverlay } from '../components/loading-overlay';
import { PublicShell } from '../components/public-shell';
import { ForgotPasswordPage } from '../features/auth/components/forgot-password-page';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { ClientActivityPage } from '../features/client-activity/components/client-activity-page';
import { ClientInformationPage } from '../features/client-information/components/client-information-page';
import { PortalLayout } from './portal-layout';

// The payment and forms screens load on first visit: most visits never open them.
const PaymentInformationPage = lazy(() =>
  import('../features/payments/components/payment-information-page').then((m) => ({
    default: m.PaymentInformationPage,
  })),
);
const FormsPage = lazy(() =>
  import('../features/forms/components/forms-page').then((m) => ({ default: m.FormsPage })),
);
const PublicPaymentPage = lazy(() =>
  import('../features/payments/components/public-payment-page').then((m) => ({
    default: m.PublicPaymentPage,
  })),
);

function PublicComingSoon({ title }: { title: string }) {
  return (
    <PublicShell title={title} width={640}>
      <ComingSoonPage title={title} backTo="/" backLabel="Go to sign-in" />
    </PublicShell>
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
          element={<PublicComingSoon title="Newborn Finance Agreement" />}
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
          <Route path="*" element={<ComingSoonPage title="Page not found" />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
