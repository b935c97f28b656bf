/**
 * Fault injection for the fault suite (src/server/faults): with FAULT_POINT=<name> the process
 * kills itself (SIGKILL, no clean-up) the first time it reaches that point, so the suite can
 * prove that every step of a payment or a signing survives a crash right there. Without the
 * variable, or in production, this does nothing.
 */
const armed = process.env.NODE_ENV !== 'production' ? process.env.FAULT_POINT : undefined;

export type FaultPoint =
  | 'payment:after-claim'
  | 'payment:after-save-method'
  | 'payment:before-charge'
  | 'payment:after-charge'
  | 'payment:after-commit'
  | 'consent:after-claim'
  | 'consent:after-documents'
  | 'consent:after-commit'
  | 'white-glove:after-charge'
  | 'refund:before-send'
  | 'refund:after-gateway';

export function faultPoint(point: FaultPoint): void {
  if (armed && armed === point) process.kill(process.pid, 'SIGKILL');
}
