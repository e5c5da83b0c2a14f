import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createActivities, type ActivityDeps } from '../../activities';
import { PLUGIN_TYPES, PLUGIN_TYPE_LIST } from '../../src/plugins/registry';
import { visiblePluginConfig } from '../../src/plugins/manage/plugin-config-visibility';
import { SECRET_MASK } from '../../src/plugins/manage/plugin-secrets';
import { DEFAULT_DELIVERY_POLICY } from '../../workflows/delivery-kinds';
import { deliveryKindOf } from '../../workflows/delivery-kinds';
import { DELIVERY_ACTIVITY, PLUGIN_TYPE_KEYS } from '../../workflows/delivery-kinds';

describe('the plugin type registry', () => {
  it('declares every type the workflow delivers, under its own key', () => {
    expect(Object.keys(PLUGIN_TYPES).sort()).toEqual([...PLUGIN_TYPE_KEYS].sort());
    for (const [key, type] of Object.entries(PLUGIN_TYPES)) expect(type.key).toBe(key);
  });

  it('has a registered activity and a policy for every type', () => {
    // The factories only keep their dependencies: nothing is called while they are built.
    const registered = createActivities({} as ActivityDeps);
    for (const key of PLUGIN_TYPE_KEYS) {
      expect(registered).toHaveProperty(DELIVERY_ACTIVITY[key]);
      const kind = deliveryKindOf(key, DEFAULT_DELIVERY_POLICY, false, true);
      expect(kind?.activity).toBe(DELIVERY_ACTIVITY[key]);
      expect(kind!.policy.maxAttempts).toBeGreaterThan(1);
      expect(deliveryKindOf(key, DEFAULT_DELIVERY_POLICY, true, true)!.policy.maxAttempts).toBe(1);
    }
  });

  it('plans no type it does not know, and only webhooks in runs from before the others', () => {
    expect(deliveryKindOf('fax', DEFAULT_DELIVERY_POLICY, false, true)).toBeUndefined();
    expect(deliveryKindOf('slack', DEFAULT_DELIVERY_POLICY, false, false)).toBeUndefined();
    expect(deliveryKindOf('webhook', DEFAULT_DELIVERY_POLICY, false, false)).toBeDefined();
  });

  it('masks every sealed field for managers and drops undeclared fields for viewers', () => {
    for (const type of PLUGIN_TYPE_LIST) {
      const config: Record<string, unknown> = { injected: 'x', url: 'https://h.example/secret' };
      for (const field of type.sealed) config[field] = 'a-token';
      const full = visiblePluginConfig(type.key, config, 'full');
      for (const field of type.sealed) expect(full[field]).toBe(SECRET_MASK);
      const redacted = visiblePluginConfig(type.key, config, 'redacted');
      const allowed = [...type.redacted.keep, ...type.redacted.origin];
      expect(Object.keys(redacted).every((field) => allowed.includes(field))).toBe(true);
      expect(JSON.stringify(redacted)).not.toContain('a-token');
      expect(JSON.stringify(redacted)).not.toContain('/secret');
    }
    expect(visiblePluginConfig('fax', { url: 'https://x' }, 'full')).toEqual({});
  });

  it('gives every type a dashboard field list and a section in docs/plugins.md', () => {
    const docs = readFileSync('docs/plugins.md', 'utf8');
    for (const type of PLUGIN_TYPE_LIST) {
      expect(type.fields.length).toBeGreaterThan(0);
      expect(docs).toContain(`\`${type.key}\``);
    }
  });
});
