import { describe, expect, it } from 'vitest';
import { discordMessage, DISCORD_LIMITS, escapeDiscord } from '../discord/discord-message';
import { escapeSlack, slackMessage, SLACK_LIMITS } from '../slack/slack-message';
import type { ChatSource } from './chat-text';

const source = (payload: Record<string, unknown>, formName = 'Contact'): ChatSource => ({
  submissionId: '42',
  formName,
  createdAt: new Date('2026-11-23T10:00:00Z'),
  payload,
});

/** Every mrkdwn text of a Slack message, header and context included. */
function slackTexts(message: ReturnType<typeof slackMessage>): string[] {
  return message.blocks.flatMap((block) => {
    if (block.type === 'section') return [block.text!.text];
    if (block.type === 'header') return [block.text.text];
    if (block.type === 'context') return block.elements.map((e) => ('text' in e ? e.text : ''));
    return [];
  });
}

function embedCharacters(message: ReturnType<typeof discordMessage>): number {
  const embed = message.embeds[0]!;
  return (
    (embed.title ?? '').length +
    (embed.footer?.text.length ?? 0) +
    (embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0)
  );
}

describe('Slack messages', () => {
  it('lists the fields under a header, in order', () => {
    const message = slackMessage(
      source({ name: 'Ada', email: 'ada@example.com', tags: ['a', 'b'] }),
    );
    expect(message.text).toBe('New submission to Contact');
    expect(message.blocks[0]).toMatchObject({
      type: 'header',
      text: { text: 'New submission to Contact' },
    });
    const texts = slackTexts(message);
    expect(texts.slice(1, 4)).toEqual(['*name*\nAda', '*email*\nada@example.com', '*tags*\na, b']);
    expect(texts.at(-1)).toContain('Submission 42');
  });

  it('neutralises channel pings, user mentions and links in values and names', () => {
    const message = slackMessage(
      source({
        message: '<!channel> hi <@U123> see <https://evil.example|click>',
        '<!here>': 'x & y',
      }),
    );
    const texts = slackTexts(message).join('\n');
    expect(texts).not.toMatch(/<[!@h]/);
    expect(texts).toContain(
      '&lt;!channel&gt; hi &lt;@U123&gt; see &lt;https://evil.example|click&gt;',
    );
    expect(texts).toContain('*&lt;!here&gt;*\nx &amp; y');
    for (const block of message.blocks)
      if (block.type === 'section') expect(block.text).toMatchObject({ verbatim: true });
  });

  it('cuts huge values to the section limit without splitting an escape', () => {
    const message = slackMessage(source({ big: '<'.repeat(100_000) }));
    const section = slackTexts(message)[1]!;
    expect(section.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(section.endsWith('&lt;…')).toBe(true);
    expect(section).not.toMatch(/&l?t?…$|&lt$/);
  });

  it('keeps within 50 blocks and says how many fields were left out', () => {
    const payload = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, 'v']));
    const message = slackMessage(source(payload, 'x'.repeat(400)));
    expect(message.blocks).toHaveLength(SLACK_LIMITS.blocks);
    expect(slackTexts(message)[0]!.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    expect(slackTexts(message).at(-1)).toContain('12 more fields not shown');
  });

  it('escapes only the three control characters', () => {
    expect(escapeSlack('a & <b> *c*')).toBe('a &amp; &lt;b&gt; *c*');
  });
});

describe('Discord messages', () => {
  it('puts the fields in one embed and allows no mentions', () => {
    const message = discordMessage(source({ name: 'Ada', comment: '' }));
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.content).toBe('New submission to Contact');
    expect(message.embeds[0]!.fields).toEqual([
      { name: 'name', value: 'Ada' },
      { name: 'comment', value: '(empty)' },
    ]);
  });

  it('escapes markdown and mentions in values', () => {
    const message = discordMessage(
      source({ message: '@everyone **bold** [x](https://evil.example) <@123> ||spoiler|| `code`' }),
    );
    const value = message.embeds[0]!.fields![0]!.value;
    expect(value).toBe(
      '\\@everyone \\*\\*bold\\*\\* \\[x\\](https\\://evil.example) \\<\\@123\\> \\|\\|spoiler\\|\\| \\`code\\`',
    );
    expect(escapeDiscord('a_b~c')).toBe('a\\_b\\~c');
  });

  it('keeps every limit with hostile sizes: 2000 content, 256/1024 fields, 25 fields, 6000 total', () => {
    const payload = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`${'n'.repeat(300)}${i}`, '*'.repeat(5000)]),
    );
    const message = discordMessage(source(payload, '_'.repeat(3000)));
    expect(message.content.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
    const fields = message.embeds[0]!.fields!;
    expect(fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    for (const field of fields) {
      expect(field.name.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
      expect(field.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
      expect(field.value.length).toBeGreaterThan(0);
    }
    expect(embedCharacters(message)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    expect(message.embeds[0]!.footer!.text).toMatch(/\d+ more fields not shown/);
  });

  it('stops at 25 fields', () => {
    const payload = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'v']));
    const message = discordMessage(source(payload));
    expect(message.embeds[0]!.fields).toHaveLength(25);
    expect(message.embeds[0]!.footer!.text).toContain('5 more fields not shown');
  });
});
