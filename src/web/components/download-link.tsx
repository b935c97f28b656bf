import { Anchor } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';

/** A PDF the server gives to whoever holds the page's link (a receipt, a signed agreement). */
export function DownloadLink({ href, children }: { href: string; children: string }) {
  return (
    <Anchor
      href={href}
      download
      c="blue.9"
      underline="always"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}
    >
      <IconDownload size={16} aria-hidden />
      {children}
    </Anchor>
  );
}
