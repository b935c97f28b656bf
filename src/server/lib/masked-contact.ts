/** Where a link went, for the staff member's confirmation: j***@example.com, ***-***-0199. */
export function maskedEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export function maskedPhone(phone: string): string {
  return `***-***-${phone.replace(/\D/g, '').slice(-4)}`;
}
