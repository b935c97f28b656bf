import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client';

afterEach(() => vi.unstubAllGlobals());

function stubFetch() {
  const fetchMock = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ otpSent: true }), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the API client', () => {
  it("marks every call as the portal's own with its header (get_otp refuses calls without it from other sites)", async () => {
    const fetchMock = stubFetch();
    await apiRequest('GET', 'pay/get_otp', {
      query: { email: 'jane.doe@example.com', firstName: 'Jane', dateOfBirth: '1975-03-14' },
    });
    await apiRequest('POST', 'pay/update_Client', { body: { a: 1 }, headers: { 'Idempotency-Key': 'k-1' } });
    const [get, post] = fetchMock.mock.calls.map(([, init]) => init?.headers as Record<string, string>);
    expect(get).toEqual({ 'x-portal-client': 'web' });
    expect(post).toEqual({
      'x-portal-client': 'web',
      'content-type': 'application/json',
      'Idempotency-Key': 'k-1',
    });
  });
});
