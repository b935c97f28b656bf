import type { FastifyRequest } from 'fastify';

const USER_AGENT_LENGTH = 400;
// Twelve or more digits, in one piece or in groups joined by anything a person or a script might put
// between them (spaces, dashes, dots, underscores, slashes, a few at a time). A browser's version
// numbers ("Chrome/156.0.8078.73 Safari/537.36") stop well short of twelve digits in a row.
const LONG_DIGIT_RUN = /\d(?:[\s._/\\-]{0,3}\d){11,}/g;

/**
 * Masks every run of 12 or more digits but its last 4 (`************1111`), keeping whatever
 * joins the groups: a card number typed into a header is never stored, printed or e-mailed.
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
