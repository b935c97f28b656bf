import type { FastifyRequest } from 'fastify';

const USER_AGENT_LENGTH = 400;
// Twelve or more digits, one piece or in groups joined by a space or a dash (how card numbers are
// written). A browser's version numbers are joined by dots and far shorter.
const LONG_DIGIT_RUN = /\d(?:[ -]?\d){11,}/g;

/**
 * Masks every run of 12 or more digits but its last 4 (`************1111`), keeping the spaces or
 * dashes between groups: a card number typed into a header is never stored, printed or e-mailed.
 */
export function maskLongDigitRuns(text: string): string {
  return text.replace(LONG_DIGIT_RUN, (run) => {
    let toMask = run.replace(/\D/g, '').length - 4;
    return run.replace(/\d/g, (digit) => (toMask-- > 0 ? '*' : digit));
  });
}

/**
 * The signer's User-Agent as it is kept with a signature and printed on its certificate page:
 * long digit runs masked, then cut to a sensible length.
 */
export function userAgentOf(request: FastifyRequest): string {
  return maskLongDigitRuns(String(request.headers['user-agent'] ?? '')).slice(0, USER_AGENT_LENGTH);
}
