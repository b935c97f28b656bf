/**
 * jsdom lacks what Mantine asks of a browser: media queries and resize observation. Inert
 * stand-ins are enough for the component tests, which check what is shown and what a change does.
 */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class InertResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = window.ResizeObserver ?? InertResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};

afterEach(() => cleanup());
