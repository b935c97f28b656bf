/** The portal's menus (spec 1, section 2). */
export const formLinks = [
  { label: 'Consent Form', to: '/form-document/Consent-form' },
  { label: 'Infectious Disease', to: '/form-document/Infectious-disease' },
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
