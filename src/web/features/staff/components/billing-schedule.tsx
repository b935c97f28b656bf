import { Alert, Text } from '@mantine/core';
import { formatUsd } from '../../../../domain/money';
import { RENEWAL_STATUS_LABELS } from '../../../../domain/storage-billing';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { useClientBillingSchedule } from '../api/client-billing-schedule';
import { errorText } from './admin-only';
import { type BillingColumn, type BillingLead, BillingYears, usDate } from './billing-years';

const storageYear: BillingLead = {
  header: 'Storage year',
  cell: (y) => y.yearNumber ?? '—',
  cardTitle: (y) => `Storage year ${y.yearNumber ?? '—'}`,
};

const columns: BillingColumn[] = [
  { header: 'Due', cell: (y) => usDate(y.dueDate) },
  { header: 'Amount', cell: (y) => formatUsd(y.amountCents), numeric: true },
  { header: 'Status', cell: (y) => RENEWAL_STATUS_LABELS[y.status] },
  { header: 'Tries', cell: (y) => y.tries, numeric: true },
  { header: 'Paid on', cell: (y) => usDate(y.paidOn) },
  { header: 'Note', cell: (y) => y.note ?? '—' },
];

/** A client's billing schedule on their record (any staff): each storage year billed, newest first. */
export function BillingSchedule({ clientActId }: { clientActId: string }) {
  const schedule = useClientBillingSchedule(clientActId);
  if (schedule.error) {
    return (
      <Alert color="red" role="alert">
        {errorText(schedule.error)}
      </Alert>
    );
  }
  if (!schedule.data) return <LoadingSpinner size="sm" label="Loading" />;
  if (schedule.data.length === 0) return <Text size="sm">No storage year has been billed yet.</Text>;
  return (
    <BillingYears
      label="Billing schedule"
      years={schedule.data}
      lead={storageYear}
      columns={columns}
      minWidth={640}
    />
  );
}
