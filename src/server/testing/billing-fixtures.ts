import { addYears } from '../../domain/dates';
import { paymentMethods, sandboxPaymentMethods } from '../db/schema';
import { addClient } from './form-fixtures';
import type { TestApp } from './test-app';

/** Clients for the billing run's tests: banked, storage paid until a date, and what is on file. */

/** How the sandbox card on file answers a charge ("approve", "charge:<decline>"), and its last 4. */
export interface SandboxCard {
  behavior: string;
  last4: string;
}

export const APPROVING_VISA: SandboxCard = { behavior: 'approve', last4: '4242' };

interface BankedClient {
  id: string;
  actId: string;
  email: string;
}

let seq = 0;

/**
 * A client banked three years before `paidUntil` (unless `banked` says when), whose storage is
 * paid until `paidUntil`, with a sandbox Visa on file that answers charges as told (an approving
 * one unless said), or nothing on file (`null`). With a card, its gateway customer, to read the
 * sandbox's transactions by.
 */
export async function bankedClient(
  t: TestApp,
  paidUntil: string,
  card?: SandboxCard,
  banked?: string,
): Promise<BankedClient & { customerRef: string }>;
export async function bankedClient(
  t: TestApp,
  paidUntil: string,
  card: SandboxCard | null,
  banked?: string,
): Promise<BankedClient & { customerRef: string | null }>;
export async function bankedClient(
  t: TestApp,
  paidUntil: string,
  card: SandboxCard | null = APPROVING_VISA,
  banked: string = addYears(paidUntil, -3),
): Promise<BankedClient & { customerRef: string | null }> {
  const client = await addClient(t.db, { dateBankedIn: banked, annualStoragePaidUntil: paidUntil });
  if (!card) return { ...client, customerRef: null };
  seq += 1;
  const ref = { paymentRef: `banked-pm-${seq}`, customerRef: `banked-cust-${seq}` };
  const visa = {
    kind: 'card' as const,
    brand: 'Visa',
    last4: card.last4,
    expiryMonth: 12,
    expiryYear: t.clock.now().getUTCFullYear() + 4,
  };
  await t.db
    .insert(sandboxPaymentMethods)
    .values({ ...ref, ...visa, behavior: card.behavior, createdAt: t.clock.now() });
  await t.db.insert(paymentMethods).values({
    clientId: client.id,
    ...visa,
    gateway: 'sandbox',
    gatewayCustomerRef: ref.customerRef,
    gatewayPaymentRef: ref.paymentRef,
  });
  return { ...client, customerRef: ref.customerRef };
}
