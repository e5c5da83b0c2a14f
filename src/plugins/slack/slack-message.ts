import type { ContextBlock, HeaderBlock, KnownBlock, SectionBlock } from '@slack/types';
import { chatFields, fitEscaped, type ChatSource } from '../chat/chat-text';

/** Slack's limits (api.slack.com/reference/block-kit/blocks), with the fallback `text` kept short. */
export const SLACK_LIMITS = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fallbackText: 3000,
} as const;

/** The body Slack's incoming webhooks take: a notification text and Block Kit blocks. */
export type SlackMessage = { text: string; blocks: KnownBlock[] };

/**
 * Slack's three control characters (api.slack.com/reference/surfaces/formatting#escaping):
 * with them escaped, `<!channel>`, `<@U123>` and `<https://…|label>` in a value stay text.
 */
export function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Plain text (the header): Slack shows it as is, so only the length is cut. */
function plain(text: string, limit: number): string {
  return fitEscaped(text.replace(/\s+/g, ' ').trim(), limit, (t) => t) || ' ';
}

function fieldSection(name: string, value: string): SectionBlock {
  const title = fitEscaped(name, 200, escapeSlack);
  const body = fitEscaped(
    value === '' ? '(empty)' : value,
    SLACK_LIMITS.sectionText - title.length - 10,
    escapeSlack,
  );
  // verbatim: Slack neither links URLs nor turns #channel names into links in submitted text.
  return { type: 'section', text: { type: 'mrkdwn', text: `*${title}*\n${body}`, verbatim: true } };
}

/**
 * One submission as a Slack message: a header with the form's name, one section per field
 * (name in bold, value below), values cut to Slack's limits and escaped, and a last context
 * line naming the submission and the fields left out when there are more than fit.
 */
export function slackMessage(source: ChatSource): SlackMessage {
  const title = `New submission to ${source.formName}`;
  const header: HeaderBlock = {
    type: 'header',
    text: { type: 'plain_text', text: plain(title, SLACK_LIMITS.headerText), emoji: false },
  };
  const fields = chatFields(source.payload);
  const room = SLACK_LIMITS.blocks - 2; // the header and the closing context
  const shown = fields.slice(0, room);
  const hidden = fields.length - shown.length;
  const footer = `Submission ${source.submissionId} · ${source.createdAt.toISOString()}${
    hidden > 0 ? ` · ${hidden} more field${hidden === 1 ? '' : 's'} not shown` : ''
  }`;
  const context: ContextBlock = {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: escapeSlack(footer), verbatim: true }],
  };
  return {
    text: fitEscaped(title, SLACK_LIMITS.fallbackText, escapeSlack),
    blocks: [header, ...shown.map((field) => fieldSection(field.name, field.value)), context],
  };
}
