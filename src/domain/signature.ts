/**
 * The buttons that confirm a drawn signature, shared by the signature pads and the messages that
 * name them: a form refused for want of a signature tells the client which button to click.
 */

/** The client and physician consent forms' signature pad (spec 2, section 4). */
export const ACCEPT_SIGNATURE_LABEL = 'Accept';

/** The infectious disease form's Waiver Submission and the newborn finance agreement. */
export const CONFIRM_SIGNATURE_LABEL = 'Click to Confirm Signature';
