import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freeText, hasControlCharacter, singleLine, textMessages } from './text';

describe('control characters', () => {
  it.each([
    ['NUL', 'Jo\u0000hn', true],
    ['start of heading', '\u0001', true],
    ['escape', 'a\u001bb', true],
    ['unit separator', '\u001f', true],
    ['DEL', 'a\u007f', true],
    ['tab', 'a\tb', false],
    ['line feed', 'a\nb', false],
    ['carriage return', 'a\r\nb', false],
    ['plain text', "O'Brien-Smith, Jr.", false],
    ['accents and emoji', 'José Ñuñez 🙂', false],
    ['space', ' ', false],
  ])('%s: refused = %s', (_, value, refused) => {
    expect(hasControlCharacter(value)).toBe(refused);
  });

  it('refuses tabs and line breaks in a one-line field, and allows them in free text', () => {
    const name = singleLine(z.string().trim().max(80));
    const notes = freeText(z.string().trim().max(1000));
    expect(name.safeParse('Jane\nDoe').error?.issues[0]?.message).toBe(textMessages.lineBreak);
    expect(name.safeParse('Jane\u0000').error?.issues[0]?.message).toBe(textMessages.controlCharacter);
    expect(name.parse(' Jane Doe ')).toBe('Jane Doe');
    expect(notes.parse('Aspirin\n\tIbuprofen')).toBe('Aspirin\n\tIbuprofen');
    expect(notes.safeParse('Aspirin\u0000').error?.issues[0]?.message).toBe(textMessages.controlCharacter);
  });

  it('keeps the schema its limits and messages', () => {
    const name = singleLine(z.string().max(3, 'too long'));
    expect(name.safeParse('abcd').error?.issues[0]?.message).toBe('too long');
  });
});
