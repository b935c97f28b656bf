import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientInformationUpdate, ClientRecord } from '../../../../domain/client';
import { apiRequest } from '../../../lib/api-client';
import { clientQueryKey } from '../../../lib/client-record';

interface UpdateClientResponse {
  success: true;
  message: string;
  client: ClientRecord;
}

export function updateClient(information: ClientInformationUpdate): Promise<UpdateClientResponse> {
  return apiRequest('POST', 'pay/update_Client', { body: information });
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClient,
    onSuccess: (data) => queryClient.setQueryData(clientQueryKey(data.client.clientRecordId), data.client),
  });
}
