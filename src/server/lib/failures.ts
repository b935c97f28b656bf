/**
 * What a log may say about an error: its type, its code (a PostgreSQL SQLSTATE, a Node system
 * error) and where it was thrown. Never its message: a failed query's message holds the SQL and its
 * parameters, and a PostgreSQL error's `detail` the values of the row (a name, a birth date).
 */
export type ErrorSummary = {
  type: string;
  /** Always this text: the real message is withheld. */
  message: typeof MESSAGE_WITHHELD;
  /** Named so, not `code`: the logger removes every `*.code` (recovery codes). */
  errorCode?: string;
  /** The stack's frames, without the first line, which repeats the message. */
  stack: string;
};

const MESSAGE_WITHHELD = '(not logged)';

function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current !== null && typeof current === 'object' && chain.length < 10 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function codeOf(error: unknown): string | undefined {
  for (const item of causesOf(error)) {
    const code = (item as { code?: unknown }).code;
    if (typeof code === 'string' && code.length <= 40) return code;
  }
  return undefined;
}

export function errorSummary(error: unknown): ErrorSummary {
  if (error === null || typeof error !== 'object') {
    return { type: typeof error, message: MESSAGE_WITHHELD, stack: '' };
  }
  const type = (error as { name?: unknown }).name;
  const code = codeOf(error);
  const stack = (error as { stack?: unknown }).stack;
  const frames =
    typeof stack === 'string'
      ? stack
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .join('\n')
      : '';
  return {
    type: typeof type === 'string' ? type : 'Error',
    message: MESSAGE_WITHHELD,
    ...(code ? { errorCode: code } : {}),
    stack: frames,
  };
}

// SQLSTATE class 08 (connection exception), the server shutting down or going away (57P01-03),
// too many connections (53300), and Node's own socket errors.
const CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|Client has encountered a connection error|Client was closed|Connection ended unexpectedly|timeout exceeded when trying to connect|Cannot use a pool after calling end/i;

/** A lost or refused database connection: the request may succeed if tried again in a moment. */
export function isConnectionLost(error: unknown): boolean {
  return causesOf(error).some((item) => {
    const code = (item as { code?: unknown }).code;
    if (typeof code === 'string' && (/^08[0-9A-Z]{3}$/.test(code) || CONNECTION_CODES.has(code))) return true;
    const message = (item as { message?: unknown }).message;
    // A failed query's own message is the SQL text; only its cause says what happened.
    return (
      typeof message === 'string' && !message.startsWith('Failed query:') && CONNECTION_MESSAGES.test(message)
    );
  });
}
