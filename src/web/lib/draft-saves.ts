/**
 * Saves of form drafts (to the server) that have not left yet, by form and subject: a sign-out
 * sends them first, while the session still lets them through.
 */
const unsent = new Map<string, () => Promise<void>>();

export const draftSaves = {
  add(key: string, send: () => Promise<void>) {
    unsent.set(key, send);
  },
  remove(key: string) {
    unsent.delete(key);
  },
  /** Sends every draft still waiting for its moment. */
  async flush(): Promise<void> {
    await Promise.all([...unsent.values()].map((send) => send()));
  },
};
