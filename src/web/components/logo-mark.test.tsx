import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { framePlaceholderHtml } from '../app/frame-placeholder';
import { LogoMark } from './logo-mark';
import { logoMarkSvg } from './logo-mark-shapes';

/** What an `<svg>`'s markup draws: its children, each closed by `/>` as the SVG strings write them. */
const drawing = (markup: string) =>
  markup
    .replace(/^<svg[^>]*>/, '')
    .replace(/<\/svg>$/, '')
    .replace(/><\/(circle|path)>/g, '/>');

describe("the bank's mark", () => {
  it("draws the same shapes in the app's header as in the painted header and the favicon", () => {
    const header = renderToStaticMarkup(<LogoMark />);
    expect(drawing(header)).toBe(drawing(logoMarkSvg()));
    expect(framePlaceholderHtml('Client Portal')).toContain(drawing(logoMarkSvg()));
  });

  it('is hidden from screen readers and keeps its size', () => {
    const header = renderToStaticMarkup(<LogoMark size={32} />);
    expect(header).toMatch(/^<svg [^>]*aria-hidden="true"/);
    expect(header).toContain('width="32"');
    expect(header).toContain('height="32"');
    expect(framePlaceholderHtml('Client Portal')).toMatch(/<svg [^>]*aria-hidden="true"/);
  });

  it('is a few hundred bytes of SVG', () => {
    expect(logoMarkSvg().length).toBeLessThan(800);
  });
});
