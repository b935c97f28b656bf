import { describe, expect, it } from 'vitest';
import { maskLongDigitRuns } from './user-agent';

describe('a User-Agent kept with a signature', () => {
  it.each([
    [
      'a browser, versions and all',
      'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.6099.109 Safari/537.36',
      null,
    ],
    ['11 digits (a phone number and one)', 'App 30555501234', null],
    ['12 digits', 'App 123456789012', 'App ********9012'],
    ['a card number in one piece', 'x 4111111111111111 y', 'x ************1111 y'],
    ['a card number in groups', 'card 4111 1111 1111 1111', 'card **** **** **** 1111'],
    ['a card number with dashes', '5555-5555-5555-4444;', '****-****-****-4444;'],
    [
      'two numbers side by side, as one run',
      '4111111111111111/378282246310005',
      '****************/***********0005',
    ],
    ['two numbers apart', '4111111111111111 ; 378282246310005', '************1111 ; ***********0005'],
    ['a card number with dots', 'x 4111.1111.1111.1111', 'x ****.****.****.1111'],
    ['a card number with underscores', 'rt_4111_1111_1111_1111', 'rt_****_****_****_1111'],
    ['a card number with slashes', '4111/1111/1111/1111', '****/****/****/1111'],
    ['a card number with double spaces', '4111  1111  1111  1111', '****  ****  ****  1111'],
    [
      'an Android WebView, builds and versions',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.109 Mobile Safari/537.36',
      null,
    ],
  ])('%s', (_case, text, masked) => {
    expect(maskLongDigitRuns(text)).toBe(masked ?? text);
  });
});
