/**
 * Prints the current TOTP code of the demo admin of the back office (staff@example.com), whose
 * secret is fixed in the demo data: the second step of signing in at /staff.
 */
import { generate } from 'otplib';
import { DEMO_STAFF_EMAIL, DEMO_STAFF_TOTP_SECRET } from '../src/server/db/seed';

const code = await generate({ secret: DEMO_STAFF_TOTP_SECRET });
const secondsLeft = 30 - (Math.floor(Date.now() / 1000) % 30);
console.log(`${code}  (${DEMO_STAFF_EMAIL}, valid for ${secondsLeft} more seconds)`);
