/**
 * The header the portal's own API client sends on every call. A page on another site cannot send
 * it: a custom header needs a CORS preflight, which the portal never grants. So a call that must
 * not be made cross-site (a GET that sends mail) asks for it, or for the browser's own
 * `Sec-Fetch-Site: same-origin`.
 */
export const PORTAL_CLIENT_HEADER = 'x-portal-client';
export const PORTAL_CLIENT_VALUE = 'web';
