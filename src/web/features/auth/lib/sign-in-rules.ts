/** What the sign-in form checks before it sends, loaded on demand by the sign-in page. */
export { loginRequestSchema, physicianLoginRequestSchema } from '../../../../domain/auth';
export { fieldMessages } from '../../../../domain/errors';
