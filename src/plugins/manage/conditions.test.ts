import { describe, expect, it } from 'vitest';
import { checkConditions, conditionsMatch } from './conditions';
import { checkIncludeFields, pickFields } from './include-fields';
import { checkWebhookHeaders } from '../webhook/webhook-headers';
import { visiblePluginConfig } from './plugin-config-visibility';
import { openConfig, pluginSecretsCipher, sealConfig, SECRET_MASK } from './plugin-secrets';
import { webhookType } from '../webhook/declaration';

const match = (rules: unknown[], payload: Record<string, unknown>, how = 'all') => {
  const checked = checkConditions({ match: how, rules });
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  return conditionsMatch(checked.conditions, payload);
};

describe('plugin conditions', () => {
  it('compares text trimmed and ignoring case, and numbers as their text', () => {
    expect(match([{ field: 'topic', op: 'equals', value: 'Sales' }], { topic: ' sales ' })).toBe(
      true,
    );
    expect(match([{ field: 'topic', op: 'equals', value: 'sales' }], { Topic: 'sales' })).toBe(
      false,
    );
    expect(match([{ field: 'qty', op: 'equals', value: 5 }], { qty: 5 })).toBe(true);
    expect(match([{ field: 'qty', op: 'equals', value: '5' }], { qty: 5.0 })).toBe(true);
    expect(match([{ field: 'qty', op: 'equals', value: '5.0' }], { qty: 5 })).toBe(false);
    expect(match([{ field: 'ok', op: 'equals', value: true }], { ok: true })).toBe(true);
    expect(
      match([{ field: 'msg', op: 'contains', value: 'URGENT' }], { msg: 'this is urgent!' }),
    ).toBe(true);
    expect(match([{ field: 'msg', op: 'not_contains', value: 'spam' }], { msg: 'hello' })).toBe(
      true,
    );
  });

  it('matches a list (checkboxes) when one of its values does, its negations when none does', () => {
    const payload = { options: ['Red', 'Blue'] };
    expect(match([{ field: 'options', op: 'equals', value: 'blue' }], payload)).toBe(true);
    expect(match([{ field: 'options', op: 'not_equals', value: 'blue' }], payload)).toBe(false);
    expect(match([{ field: 'options', op: 'one_of', value: ['green', 'red'] }], payload)).toBe(
      true,
    );
    expect(match([{ field: 'options', op: 'one_of', value: ['green'] }], payload)).toBe(false);
    expect(match([{ field: 'options', op: 'contains', value: 'lu' }], payload)).toBe(true);
  });

  it('reads a missing field, null, blanks and an empty list as empty', () => {
    for (const payload of [{}, { f: null }, { f: '  ' }, { f: [] }, { f: [''] }]) {
      expect(match([{ field: 'f', op: 'is_empty' }], payload)).toBe(true);
      expect(match([{ field: 'f', op: 'not_empty' }], payload)).toBe(false);
      expect(match([{ field: 'f', op: 'equals', value: 'x' }], payload)).toBe(false);
      expect(match([{ field: 'f', op: 'not_equals', value: 'x' }], payload)).toBe(true);
    }
    expect(match([{ field: 'f', op: 'not_empty' }], { f: 0 })).toBe(true);
  });

  it('needs every rule with match all, one with match any; none set sends everything', () => {
    const rules = [
      { field: 'a', op: 'equals', value: '1' },
      { field: 'b', op: 'equals', value: '2' },
    ];
    expect(match(rules, { a: '1', b: '3' }, 'all')).toBe(false);
    expect(match(rules, { a: '1', b: '3' }, 'any')).toBe(true);
    expect(match(rules, { a: '0', b: '3' }, 'any')).toBe(false);
    expect(conditionsMatch(null, {})).toBe(true);
  });

  it('refuses bad conditions with field: message problems', () => {
    const problems = (raw: unknown) => {
      const checked = checkConditions(raw);
      return checked.ok ? [] : checked.errors;
    };
    expect(problems({ match: 'some', rules: [{ field: 'a', op: 'is_empty' }] })).toEqual([
      'conditions.match: must be "all" or "any"',
    ]);
    expect(problems({ rules: [{ field: 'a', op: 'equals' }] })).toEqual([
      'conditions.rules.0.value: is required for equals',
    ]);
    expect(problems({ rules: [{ field: 'a', op: 'one_of', value: 'x' }] })).toEqual([
      'conditions.rules.0.value: must be a list of values for one_of',
    ]);
    expect(problems({ rules: [{ field: '', op: 'matches', value: 'x' }] })).toHaveLength(2);
    expect(problems({ rules: [] })[0]).toMatch(/^conditions\.rules: must have at least one rule/);
    const many = Array.from({ length: 21 }, () => ({ field: 'a', op: 'not_empty' }));
    expect(problems({ rules: many })).toEqual(['conditions.rules: must have at most 20 rules']);
    expect(problems({ rules: [{ field: 'a', op: 'equals', value: 'x'.repeat(501) }] })).toEqual([
      'conditions.rules.0.value: must be at most 500 characters',
    ]);
    expect(checkConditions(null)).toEqual({ ok: true, conditions: null });
  });
});

describe('include_fields', () => {
  it('keeps only the named fields, by exact name; null keeps all', () => {
    expect(pickFields({ a: 1, b: 2, A: 3 }, ['a', 'missing'])).toEqual({ a: 1 });
    expect(pickFields({ a: 1 }, null)).toEqual({ a: 1 });
  });

  it('refuses an empty or overlong list', () => {
    expect(checkIncludeFields([])).toMatchObject({ ok: false });
    expect(checkIncludeFields([' a ', 'a', 'b'])).toEqual({ ok: true, includeFields: ['a', 'b'] });
    expect(checkIncludeFields('a')).toMatchObject({ ok: false });
  });
});

describe('webhook headers', () => {
  const problems = (raw: unknown, stored = [] as { name: string; value: string }[]) => {
    const checked = checkWebhookHeaders(raw, stored);
    return checked.ok ? [] : checked.errors;
  };

  it('refuses the headers Formward sets, duplicates, bad names and line breaks', () => {
    for (const name of [
      'Content-Type',
      'host',
      'X-Service-Signature',
      'webhook-id',
      'X-Formward-Delivery',
      'User-Agent',
      'Transfer-Encoding',
    ])
      expect(problems([{ name, value: 'x' }])).toEqual([
        `headers.0.name: "${name}" is set by Formward and cannot be replaced`,
      ]);
    expect(
      problems([
        { name: 'X-A', value: '1' },
        { name: 'x-a', value: '2' },
      ]),
    ).toEqual(['headers.1.name: "x-a" is given twice']);
    expect(problems([{ name: 'Bad Name', value: '1' }])[0]).toMatch(/^headers\.0\.name: /);
    expect(problems([{ name: 'X-A', value: 'a\r\nInjected: 1' }])).toEqual([
      'headers.0.value: must not contain line breaks',
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `X-${i}`, value: 'v' }));
    expect(problems(eleven)).toEqual(['headers: must have at most 10 headers']);
  });

  it('keeps a stored value for a header given without one, and needs one otherwise', () => {
    const stored = [{ name: 'Authorization', value: 'Bearer s3cret' }];
    expect(checkWebhookHeaders([{ name: 'authorization' }], stored)).toEqual({
      ok: true,
      headers: [{ name: 'authorization', value: 'Bearer s3cret' }],
    });
    expect(problems([{ name: 'X-New' }], stored)).toEqual([
      'headers.0.value: is required for "X-New"',
    ]);
  });
});

describe('webhook header values as secrets', () => {
  it('are sealed and opened through the declaration, masked for managers, dropped for others', () => {
    const cipher = pluginSecretsCipher('x'.repeat(32));
    const config = {
      url: 'https://h.example/p',
      headers: [{ name: 'Authorization', value: 'tok' }],
    };
    const sealed = sealConfig(webhookType, config, cipher);
    expect(JSON.stringify(sealed)).not.toContain('tok');
    expect(openConfig(webhookType, sealed, cipher)).toEqual(config);
    expect(visiblePluginConfig('webhook', sealed, 'full')).toEqual({
      url: 'https://h.example/p',
      headers: [{ name: 'Authorization', value: SECRET_MASK }],
    });
    expect(visiblePluginConfig('webhook', sealed, 'redacted')).toEqual({
      url: 'https://h.example',
    });
  });
});
