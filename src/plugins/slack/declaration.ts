import { chatType } from '../chat/chat-type';
import { slackMessage } from './slack-message';

/** The submission as Block Kit (src/plugins/slack/slack-message.ts); Slack answers 200 `ok`. */
export const slackType = chatType({
  key: 'slack',
  label: 'Slack',
  urlLabel: 'Slack incoming-webhook',
  placeholder: 'https://hooks.slack.com/services/…',
  message: slackMessage,
});
