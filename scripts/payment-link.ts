/**
 * npm run payment-link -- ACT10001
 * Prints the signed links (valid 7 days) that open the public payment pages already identified
 * for that client: the e-mail variant and the text-message variant. Uses the same key as the
 * server (LINK_SECRET, else the key file in DATA_DIR).
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { createPaymentLinkToken, linkSecret } from '../src/server/lib/link-tokens';
import { warnWithoutPublicUrl } from './link-address';

const clientActId = process.argv[2]?.trim();
if (!clientActId || !/^[A-Za-z0-9-]{3,64}$/.test(clientActId)) {
  console.error('Usage: npm run payment-link -- <Client ID>   (for example ACT10001)');
  process.exit(2);
}
try {
  const config = loadConfig();
  const token = createPaymentLinkToken(
    linkSecret(config.dataDir, config.linkSecret),
    clientActId,
    new Date(),
  );
  console.log(`E-mail link:        ${config.publicUrl}/updatepaymentinformation?t=${token}`);
  console.log(`Text-message link:  ${config.publicUrl}/updatepaymentinfo?t=${token}`);
  warnWithoutPublicUrl(config.publicUrl);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(1);
}
