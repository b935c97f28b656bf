/**
 * The physician's list of clients (My Clients), by its key alone: the forms a physician submits for
 * a client change it, and features do not import each other.
 */
export const physicianClientsQueryKey = ['physician-clients'] as const;
