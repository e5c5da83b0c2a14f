import { describe, expect, it } from 'vitest';
import type { ChatSource } from './chat-text';
import { ADAPTIVE_CARD_CONTENT_TYPE, teamsMessage, TEAMS_LIMITS } from '../teams/teams-card';
import {
  escapeTelegramHtml,
  telegramMessage,
  telegramText,
  TELEGRAM_TEXT_LIMIT,
} from '../telegram/telegram-message';

const source = (payload: Record<string, unknown>, formName = 'Contact'): ChatSource => ({
  submissionId: '42',
  formName,
  createdAt: new Date('2026-11-23T10:00:00Z'),
  payload,
});

const HOSTILE = '<b>bold</b> **star** [x](https://evil.example) # head &amp; _it_';

/** Every TextRun of a Teams card, in order. */
function runs(message: ReturnType<typeof teamsMessage>) {
  return message.attachments[0]!.content.body.flatMap((block) => block.inlines);
}

describe('Teams cards', () => {
  it('is one Adaptive Card 1.4 with the form, each field and the submission', () => {
    const message = teamsMessage(source({ name: 'Ada', tags: ['a', 'b'], note: '' }));
    expect(message.type).toBe('message');
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]!.contentType).toBe(ADAPTIVE_CARD_CONTENT_TYPE);
    const card = message.attachments[0]!.content;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(runs(message).map((run) => run.text)).toEqual([
      'New submission to Contact',
      'name',
      'Ada',
      'tags',
      'a, b',
      'note',
      '(empty)',
      'Submission 42 · 2026-11-23T10:00:00.000Z',
    ]);
  });

  it('puts every text in a TextRun, which Teams never reads as markdown, unchanged', () => {
    const message = teamsMessage(source({ [HOSTILE]: HOSTILE }, HOSTILE));
    const card = message.attachments[0]!.content;
    for (const block of card.body) expect(block.type).toBe('RichTextBlock');
    expect(JSON.stringify(card)).not.toMatch(/"type":"(TextBlock|FactSet)"/);
    const texts = runs(message).map((run) => run.text);
    expect(texts).toContain(HOSTILE);
    expect(texts[0]).toBe(`New submission to ${HOSTILE}`);
  });

  it('keeps within its limits with hostile sizes and says what was left out', () => {
    const payload = Object.fromEntries(
      Array.from({ length: 80 }, (_, i) => [`${'n'.repeat(500)}${i}`, 'v'.repeat(50_000)]),
    );
    const message = teamsMessage(source(payload, 'f'.repeat(5000)));
    const texts = runs(message).map((run) => run.text);
    expect(texts[0]!.length).toBeLessThanOrEqual(TEAMS_LIMITS.title);
    const fieldTexts = texts.slice(1, -1);
    expect(fieldTexts.length / 2).toBeLessThanOrEqual(TEAMS_LIMITS.fields);
    for (const text of fieldTexts) expect(text.length).toBeLessThanOrEqual(TEAMS_LIMITS.fieldValue);
    const total = fieldTexts.reduce((sum, text) => sum + text.length, 0);
    expect(total).toBeLessThanOrEqual(TEAMS_LIMITS.totalText);
    expect(texts.at(-1)).toMatch(/\d+ more fields not shown/);
    expect(JSON.stringify(message).length).toBeLessThan(28_000);
  });
});

describe('Telegram messages', () => {
  it('escapes <, > and & in every name and value, and turns link previews off', () => {
    const message = telegramMessage('-100123', source({ [HOSTILE]: HOSTILE }, 'A & <B>'));
    expect(message).toMatchObject({
      chat_id: '-100123',
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
    const escaped = escapeTelegramHtml(HOSTILE);
    expect(escaped).toBe(
      '&lt;b&gt;bold&lt;/b&gt; **star** [x](https://evil.example) # head &amp;amp; _it_',
    );
    expect(message.text).toBe(
      [
        '<b>New submission to A &amp; &lt;B&gt;</b>',
        `<b>${escaped}</b>\n${escaped}`,
        '<i>Submission 42 · 2026-11-23T10:00:00.000Z</i>',
      ].join('\n\n'),
    );
  });

  it('shows empty values and lists as text', () => {
    const text = telegramText(source({ note: '', tags: ['a', 'b'] }));
    expect(text).toContain('<b>note</b>\n(empty)');
    expect(text).toContain('<b>tags</b>\na, b');
  });

  it('stays within 4096 characters, cutting between whole escapes and counting what is left out', () => {
    const text = telegramText(
      source({ first: '<'.repeat(500), second: '&'.repeat(3000), third: 'x', fourth: 'y' }),
    );
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text.length).toBeGreaterThan(TELEGRAM_TEXT_LIMIT - 100);
    expect(text).toContain(`<b>first</b>\n${'&lt;'.repeat(500)}\n\n`);
    const second = text.split('<b>second</b>\n')[1]!.split('\n\n')[0]!;
    expect(second.endsWith('&amp;…')).toBe(true);
    expect(second.replace(/&amp;/g, '')).toBe('…');
    expect(text).toMatch(/<i>Submission 42 · .* · 2 more fields not shown<\/i>$/);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const text = telegramText(source({ emoji: '😀'.repeat(5000) }));
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('keeps the tags balanced whatever is cut', () => {
    const payload = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`<i>${'n'.repeat(300)}${i}`, '<b>'.repeat(100)]),
    );
    const text = telegramText(source(payload, '<'.repeat(2000)));
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    const tags = text.match(/<\/?[bi]>/g)!;
    expect(tags.filter((t) => t === '<b>')).toHaveLength(tags.filter((t) => t === '</b>').length);
    expect(tags.filter((t) => t === '<i>')).toEqual(['<i>']);
    expect(text).not.toMatch(/&[a-z]*…/);
  });
});
