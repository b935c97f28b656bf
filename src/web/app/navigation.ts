/** The portal's menus (spec 1, section 2). */
export const formLinks = [
  { label: 'Consent Form', to: '/form-document/Consent-form', done: 'clientConsentFormCompleted' },
  {
    label: 'Infectious Disease',
    to: '/form-document/Infectious-disease',
    done: 'infectiousDiseaseFormCompleted',
  },
] as const;

export const navigation = {
  clientInformation: { label: 'Client Information', to: '/client-information' },
  clientActivity: { label: 'Client Activity', to: '/client-activity' },
  plans: { label: 'Banking and Storage Plans', to: '/ACT-banking-storage-plans' },
  forms: { label: 'Forms and Other Documents' },
  stemCellRequest: { label: 'Stem Cell Request Form', to: '/stem-cell-request' },
  store: { label: 'Store', to: '/store' },
  paymentInformation: { label: 'Payment Information', to: '/payment-information' },
} as const;

/** The physician's menu (issue 8): their clients first, then the steps they do for a client. */
export const physicianNavigation = {
  myClients: { label: 'My Clients', to: '/my-clients' },
  initialProcessing: { label: 'Initial Sample Processing', to: '/initial-processing' },
  clientConsent: { label: 'Client Consent', to: '/client-consent' },
  infectiousDisease: { label: 'Client Infectious Disease Form', to: '/infectious-disease' },
  cellRequests: { label: 'Cell Requests', to: '/cell-requests' },
  requestCells: { label: 'Request Cells', to: '/request-cells' },
  store: { label: 'Store', to: '/store' },
  /** The physician's own card and bank account (issue 23); /payment-information is the client's page. */
  paymentInformation: { label: 'Payment Information', to: '/physician/payment-information' },
} as const;
