import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LabReportAwaiting, ReviewLabReportResponse } from '../../../../domain/staff-queues';
import { apiRequest } from '../../../lib/api-client';

export const labReportsQueryKey = ['staff', 'queues', 'lab-reports'] as const;

/** Lab reports uploaded with the screening form and not reviewed yet: oldest first. */
export function useLabReports() {
  return useQuery({
    queryKey: labReportsQueryKey,
    queryFn: async () =>
      (await apiRequest<{ reports: LabReportAwaiting[] }>('GET', 'staff/lab_reports')).reports,
  });
}

export type LabReportDecision = { submissionId: string } & (
  | { outcome: 'accepted' }
  | { outcome: 'rejected'; reason: string }
);

/** Accepts or rejects a lab report; the queue is read again afterwards, whatever the answer. */
export function useReviewLabReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: LabReportDecision) =>
      decision.outcome === 'accepted'
        ? apiRequest<ReviewLabReportResponse>('POST', 'staff/accept_lab_report', {
            body: { submissionId: decision.submissionId },
          })
        : apiRequest<ReviewLabReportResponse>('POST', 'staff/reject_lab_report', {
            body: { submissionId: decision.submissionId, reason: decision.reason },
          }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labReportsQueryKey }),
  });
}
