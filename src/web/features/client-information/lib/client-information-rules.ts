/** What the Client Information form checks before it asks to save, loaded on demand by the page. */
export { clientInformationSchema } from '../../../../domain/client';
export { fieldMessages } from '../../../../domain/errors';
