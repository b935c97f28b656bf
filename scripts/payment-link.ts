/**
 * npm run payment-link -- ACT10001
 * Prints the signed links (valid 7 days) that open the public payment pages already identified
 * for that client: the e-mail variant and the text-message variant. Uses the same key as the
 * server (LINK_SECRET, else the key file in DATA_DIR), and its address (link-address.ts).
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { createPaymentLinkToken, linkSecret } from '../src/server/lib/link-tokens';
import { runningServerAddress } from '../src/server/lib/server-address';
import { linkAddress } from './link-address';

const clientActId = process.argv[2]?.trim();
if (!clientActId || !/^[A-Za-z0-9-]{3,64}$/.test(clientActId)) {
  console.error('Usage: npm run payment-link -- <Client ID>   (for example ACT10001)');
  process.exit(2);
}
try {
  const config = loadConfig();
  const { publicUrl, notes } = linkAddress(
    process.env,
    config,
    runningServerAddress(config.dataDir),
    `npm run payment-link -- ${clientActId}`,
  );
  const token = createPaymentLinkToken(
    linkSecret(config.dataDir, config.linkSecret),
    clientActId,
    new Date(),
  );
  console.log(`E-mail link:        ${publicUrl}/updatepaymentinformation?t=${token}`);
  console.log(`Text-message link:  ${publicUrl}/updatepaymentinfo?t=${token}`);
  for (const note of notes) console.error(note);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(1);
}
