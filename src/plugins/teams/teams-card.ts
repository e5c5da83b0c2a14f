import { chatFields, fitEscaped, type ChatSource } from '../chat/chat-text';

/*
 * A submission as a Microsoft Teams message: one Adaptive Card, as a Teams workflow
 * ("When a Teams webhook request is received") takes it. Every text is a TextRun in a
 * RichTextBlock: TextRuns are never read as markdown (the schema says so), whereas a
 * TextBlock's or a FactSet's text is, and Teams clients disagree on backslash escapes
 * (desktop honours them, mobile shows them). So `**bold**`, `[x](https://…)` and `# title`
 * in a submitted value arrive as the characters typed.
 */

/** Teams refuses messages past about 28 KB: the texts are kept well within it. */
export const TEAMS_LIMITS = {
  title: 200,
  fieldName: 200,
  fieldValue: 2000,
  fields: 50,
  /** All field names and values together. */
  totalText: 16_000,
} as const;

export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

type TextRun = {
  type: 'TextRun';
  text: string;
  weight?: 'Bolder';
  size?: 'Medium';
  isSubtle?: boolean;
};
type RichTextBlock = { type: 'RichTextBlock'; inlines: TextRun[]; spacing?: 'None' | 'Medium' };

export type AdaptiveCard = {
  $schema: string;
  type: 'AdaptiveCard';
  version: '1.4';
  body: RichTextBlock[];
};

export type TeamsMessage = {
  type: 'message';
  attachments: Array<{ contentType: typeof ADAPTIVE_CARD_CONTENT_TYPE; content: AdaptiveCard }>;
};

/** Plain text cut to `limit` characters, an ellipsis marking the cut. */
const cut = (text: string, limit: number) => fitEscaped(text, limit, (t) => t);

const block = (inlines: TextRun[], spacing?: RichTextBlock['spacing']): RichTextBlock => ({
  type: 'RichTextBlock',
  inlines,
  ...(spacing && { spacing }),
});

/**
 * One submission as a Teams message: the form's name as the card's title, two blocks per
 * field (name in bold, value below, cut to TEAMS_LIMITS), and a last subtle line with the
 * submission id, its time and how many fields were left out.
 */
export function teamsMessage(source: ChatSource): TeamsMessage {
  const title = cut(`New submission to ${source.formName}`, TEAMS_LIMITS.title);
  let budget: number = TEAMS_LIMITS.totalText;
  const all = chatFields(source.payload);
  const fields: RichTextBlock[][] = [];
  for (const field of all) {
    if (fields.length === TEAMS_LIMITS.fields || budget < 20) break;
    const name = cut(field.name, Math.min(TEAMS_LIMITS.fieldName, Math.floor(budget / 4))) || ' ';
    const value = cut(
      field.value === '' ? '(empty)' : field.value,
      Math.min(TEAMS_LIMITS.fieldValue, budget - name.length),
    );
    budget -= name.length + value.length;
    fields.push([
      block([{ type: 'TextRun', text: name, weight: 'Bolder' }], 'Medium'),
      block([{ type: 'TextRun', text: value || ' ' }], 'None'),
    ]);
  }
  const hidden = all.length - fields.length;
  const footer = `Submission ${source.submissionId} · ${source.createdAt.toISOString()}${
    hidden > 0 ? ` · ${hidden} more field${hidden === 1 ? '' : 's'} not shown` : ''
  }`;
  const card: AdaptiveCard = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      block([{ type: 'TextRun', text: title, weight: 'Bolder', size: 'Medium' }]),
      ...fields.flat(),
      block([{ type: 'TextRun', text: footer, isSubtle: true }], 'Medium'),
    ],
  };
  return {
    type: 'message',
    attachments: [{ contentType: ADAPTIVE_CARD_CONTENT_TYPE, content: card }],
  };
}
