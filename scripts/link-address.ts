/**
 * The link scripts' reminder: the link's address is the server's only if they run with the
 * server's settings (PUBLIC_URL, or PORT; and its LINK_SECRET or DATA_DIR for the signature).
 */
export function warnWithoutPublicUrl(publicUrl: string): void {
  if (process.env.PUBLIC_URL) return;
  console.error(
    `(Built for ${publicUrl}: PUBLIC_URL is not set, so the address is http://localhost and PORT. Run this with the server's PUBLIC_URL or PORT, and its LINK_SECRET or DATA_DIR, or the link will not open.)`,
  );
}
