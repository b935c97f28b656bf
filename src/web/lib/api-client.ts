import type { ErrorBody, ErrorCode } from '../../domain/errors';
import { PORTAL_CLIENT_HEADER, PORTAL_CLIENT_VALUE } from '../../domain/portal-client';

/** A failed API call: the server's message, its code, and the message of each failing field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = () => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called when a signed-in call answers 401: the session ended on the server. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

const amountChangedListeners = new Set<Listener>();

/** The server refused an amount the page showed (409 AMOUNT_CHANGED): a price may have changed. */
export function onAmountChanged(listener: Listener): () => void {
  amountChangedListeners.add(listener);
  return () => amountChangedListeners.delete(listener);
}

interface RequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** A 401 from this call is an answer (sign-in, session probe), not an ended session. */
  expectUnauthenticated?: boolean;
  headers?: Record<string, string>;
  /** Sent even if the page is closing (a draft saved as the tab goes): the browser finishes it. */
  keepalive?: boolean;
}

/** The one way the web talks to the server. */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) params.set(key, value);
  }
  const url = `/api/${path}${params.size > 0 ? `?${params}` : ''}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: {
        // Tells the server the call is the portal's own (what a page on another site cannot send).
        [PORTAL_CLIENT_HEADER]: PORTAL_CLIENT_VALUE,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  } catch {
    throw new ApiError(
      0,
      'INTERNAL',
      'The portal could not be reached. Please check your connection and try again.',
    );
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (response.ok) return data as T;

  const body = (data ?? {}) as Partial<ErrorBody>;
  if (response.status === 401 && !options.expectUnauthenticated) {
    for (const listener of unauthenticatedListeners) listener();
  }
  if (response.status === 409 && body.code === 'AMOUNT_CHANGED') {
    for (const listener of amountChangedListeners) listener();
  }
  throw new ApiError(
    response.status,
    body.code ?? 'INTERNAL',
    body.error ?? 'Something went wrong. Please try again.',
    body.fields ?? {},
  );
}
