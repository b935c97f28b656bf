import { type ComponentType, lazy } from 'react';

/**
 * The web side of each work queue, under the server's key for it (`GET /api/staff/queues`): the
 * line its home card shows, and its page at `/staff/queues/<key>`. Add a queue here.
 */
export const queuePages: Record<string, { description: string; Page: ComponentType }> = {
  checks: {
    description: 'New samples sent with a check: record the check, so the initial processing is paid.',
    Page: lazy(() =>
      import('./staff-sample-checks-page').then((m) => ({ default: m.StaffSampleChecksPage })),
    ),
  },
  'samples-to-receive': {
    description:
      "New samples not yet at the bank: record the day the tissue arrived and the vials banked, so the client's storage year starts.",
    Page: lazy(() => import('./samples-to-receive-page').then((m) => ({ default: m.SamplesToReceivePage }))),
  },
  'lab-reports': {
    description: 'Uploaded lab reports: view the PDF, accept it, or reject it with a reason.',
    Page: lazy(() => import('./staff-lab-reports-page').then((m) => ({ default: m.StaffLabReportsPage }))),
  },
  'vial-requests': {
    description:
      "Record the practitioner's approval, confirm the ACT VIP price, mark shipped with the tracking number, mark delivered.",
    Page: lazy(() =>
      import('./vial-requests-queue-page').then((m) => ({ default: m.VialRequestsQueuePage })),
    ),
  },
  'payments-in-doubt': {
    description:
      'Payments whose outcome is unknown: look each up at the gateway and settle it as paid or failed.',
    Page: lazy(() => import('./payments-in-doubt-page').then((m) => ({ default: m.PaymentsInDoubtPage }))),
  },
  'plan-checks': {
    description: 'Banking and Storage Plans orders paid by check: record the check, so the plan is applied.',
    Page: lazy(() => import('./plan-checks-page').then((m) => ({ default: m.PlanChecksPage }))),
  },
  'storage-checks': {
    description: 'Storage years invoiced or overdue: record the check, so the year is paid.',
    Page: lazy(() => import('./storage-checks-page').then((m) => ({ default: m.StorageChecksPage }))),
  },
  'store-orders': {
    description: 'Store orders: mark shipped with the tracking number, then mark delivered.',
    Page: lazy(() => import('./store-orders-queue-page').then((m) => ({ default: m.StoreOrdersQueuePage }))),
  },
};

export const queuePath = (key: string) => `/staff/queues/${key}`;
