/**
 * npm run agreement-link [-- <agreement id>]
 * Prints a signed link (valid 7 days) that opens a newborn finance agreement for its main
 * contact; without an id, the demo agreement (Mia Nguyen, ACT10020). Uses the same key as the
 * server (LINK_SECRET, else the key file in DATA_DIR), and not the database.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { DEMO_NEWBORN_AGREEMENT_ID } from '../src/server/db/seed-newborn';
import { createAgreementLinkToken, linkSecret } from '../src/server/lib/link-tokens';
import { warnWithoutPublicUrl } from './link-address';

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
  warnWithoutPublicUrl(config.publicUrl);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(1);
}
