/**
 * npm run agreement-link [-- <agreement id>]
 * Prints a signed link (valid 7 days) that opens a newborn finance agreement for its main
 * contact; without an id, the demo agreement (Mia Nguyen, ACT10020). Uses the same key as the
 * server (LINK_SECRET, else the key file in DATA_DIR), and not the database.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { DEMO_NEWBORN_AGREEMENT_ID } from '../src/server/db/seed-newborn';
import { createAgreementLinkToken, linkSecret } from '../src/server/lib/link-tokens';

const agreementId = process.argv[2]?.trim() || DEMO_NEWBORN_AGREEMENT_ID;
if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(agreementId)) {
  console.error('Usage: npm run agreement-link [-- <agreement id>]   (without an id: the demo agreement)');
  process.exit(2);
}
try {
  const config = loadConfig();
  const token = createAgreementLinkToken(
    linkSecret(config.dataDir, config.linkSecret),
    agreementId,
    new Date(),
  );
  console.log(`Newborn finance agreement link:  ${config.publicUrl}/newbornfinanceagreement/${token}`);
  if (!process.env.PUBLIC_URL) {
    // The link's address is the server's only if this runs with the server's settings.
    console.error(
      `(Built for ${config.publicUrl}: PUBLIC_URL is not set, so the address is http://localhost and PORT. Run this with the server's PUBLIC_URL or PORT, and its LINK_SECRET or DATA_DIR, or the link will not open.)`,
    );
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(1);
}
