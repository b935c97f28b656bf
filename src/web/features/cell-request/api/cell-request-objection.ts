import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ObjectionView } from '../../../../domain/cell-request-objection';
import { apiRequest } from '../../../lib/api-client';

const objectionKey = (token: string) => ['cell-request-objection', token] as const;

/** The physician's request a client's objection link names, and whether they may still object. */
export function useObjectionLink(token: string) {
  return useQuery({
    queryKey: objectionKey(token),
    queryFn: () => apiRequest<ObjectionView>('GET', 'pay/get_CellRequestObjection', { query: { token } }),
    enabled: token !== '',
    retry: false,
  });
}

/** The client's objection: once; the server answers the first if sent again. */
export function useObjectToCellRequest(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) =>
      apiRequest<ObjectionView>('POST', 'pay/object_CellRequest', { body: { token, note } }),
    onSuccess: (view) => queryClient.setQueryData(objectionKey(token), view),
    // Refused (the window closed, the vials shipped): the page reads the request again and says why.
    onError: () => void queryClient.invalidateQueries({ queryKey: objectionKey(token) }),
  });
}
