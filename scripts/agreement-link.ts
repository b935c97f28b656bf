/**
 * npm run agreement-link [-- <agreement id>]
 * Prints a signed link (valid 7 days) that opens a newborn finance agreement for its main
 * contact; without an id, the demo agreement (Mia Nguyen, ACT10020). Uses the same key as the
 * server (LINK_SECRET, else the key file in DATA_DIR) and its address (link-address.ts), and not
 * the database.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { DEMO_NEWBORN_AGREEMENT_ID } from '../src/server/db/seed-newborn';
import { createAgreementLinkToken, linkSecret } from '../src/server/lib/link-tokens';
import { runningServerAddress } from '../src/server/lib/server-address';
import { linkAddress } from './link-address';

const agreementId = process.argv[2]?.trim() || DEMO_NEWBORN_AGREEMENT_ID;
if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(agreementId)) {
  console.error('Usage: npm run agreement-link [-- <agreement id>]   (without an id: the demo agreement)');
  process.exit(2);
}
try {
  const config = loadConfig();
  const { publicUrl, notes } = linkAddress(
    process.env,
    config,
    runningServerAddress(config.dataDir),
    'npm run agreement-link',
  );
  const token = createAgreementLinkToken(
    linkSecret(config.dataDir, config.linkSecret),
    agreementId,
    new Date(),
  );
  console.log(`Newborn finance agreement link:  ${publicUrl}/newbornfinanceagreement/${token}`);
  for (const note of notes) console.error(note);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(1);
}
