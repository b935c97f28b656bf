/**
 * The buttons that confirm a drawn signature, shared by the signature pads and the messages that
 * name them: a form refused for want of a signature tells the client which button to click.
 */

/** The client and physician consent forms' signature pad (spec 2, section 4). */
export const ACCEPT_SIGNATURE_LABEL = 'Accept';

/** The infectious disease form's Waiver Submission and the newborn finance agreement. */
export const CONFIRM_SIGNATURE_LABEL = 'Click to Confirm Signature';

/** A form sent without a confirmed signature, on the consent forms. */
export const ACCEPT_SIGNATURE_MESSAGE = `Please sign and click on ${ACCEPT_SIGNATURE_LABEL}.`;

/** A form sent without a confirmed signature, on the Waiver Submission and the newborn agreement. */
export const CONFIRM_SIGNATURE_MESSAGE = `Please sign and click on "${CONFIRM_SIGNATURE_LABEL}".`;
