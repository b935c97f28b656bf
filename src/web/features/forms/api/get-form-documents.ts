import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FormDocuments } from '../../../../domain/consent-form';
import { apiRequest } from '../../../lib/api-client';

export const formDocumentsQueryKey = ['form-documents'] as const;

export function getFormDocuments(): Promise<FormDocuments> {
  return apiRequest<FormDocuments>('GET', 'pay/get_FormDocuments');
}

export const formDocumentsQuery = queryOptions({
  queryKey: formDocumentsQueryKey,
  queryFn: getFormDocuments,
});

/** Which forms are done, whether initial processing is paid, and the signed documents to download. */
export function useFormDocuments() {
  return useQuery(formDocumentsQuery);
}
