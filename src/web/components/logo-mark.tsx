import { createElement } from 'react';
import { LOGO_MARK_SHAPES, LOGO_MARK_VIEW_BOX } from './logo-mark-shapes';

/**
 * The bank's mark (logo-mark-shapes.ts), beside the portal's name in the headers and on the
 * sign-in and public pages. Hidden from screen readers: the name written beside it says it.
 */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg
      viewBox={LOGO_MARK_VIEW_BOX}
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      style={{ flex: 'none', display: 'block' }}
    >
      {/* A fixed drawing, never reordered: a shape's place is its key. */}
      {LOGO_MARK_SHAPES.map(([tag, props], index) => createElement(tag, { key: index, ...props }))}
    </svg>
  );
}
