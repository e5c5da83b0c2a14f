import { chatType } from '../chat/chat-type';

/** The submission as Block Kit (src/plugins/slack/slack-message.ts). */
export const slackType = chatType('slack', 'Slack', 'https://hooks.slack.com/services/…');
