import { afterAll, beforeAll } from 'vitest';
import type { Scope } from '../../src/domain/accounts/scopes';
import { ApiClient, type FormSettings, type FormView } from './api-client';
import { startTestStack, type TestStack, type TestStackOptions } from './test-stack';

export type KitOptions = TestStackOptions & {
  /** Also create a form of the account with these settings: the kit's `form`. */
  form?: FormSettings;
  /**
   * Stop waiting for the stack to stop after this long (with a warning), so a stuck clean-up
   * cannot keep the hooks registered before useTestStack (e.g. stopping a server) from running.
   */
  stopWithinMs?: number;
};

/** A fresh account on a stack: its user's credentials, an admin key and a client using it. */
export async function newTenant(stack: TestStack) {
  const account = await stack.createAccount();
  return {
    ...account,
    api: new ApiClient(stack.url, { key: account.adminKey }),
    /** A client with a new key of this account, with these scopes or this role. */
    async clientFor(scopes: Scope[] | 'admin' | 'readonly'): Promise<ApiClient> {
      return new ApiClient(stack.url, { key: await stack.createKey(account.accountId, scopes) });
    },
  };
}

export type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A suite's stack and the account its tests work in. */
export type TestKit = Tenant & {
  stack: TestStack;
  /** A client with a readonly key of the same account. */
  readonly: ApiClient;
  /** No credential of its own: give `key` or `cookie` per request, or none. */
  http: ApiClient;
  newTenant(): Promise<Tenant>;
};

/** The kit has a `form` when the options asked for one. */
type WithForm<O> = O extends { form: FormSettings } ? { form: FormView } : unknown;

/**
 * A suite's set-up in one call: before its tests a stack (startTestStack) with a fresh
 * account (and a form, if asked), after them the stack stops. Called inside a describe block,
 * it serves that block. The options may be a function, read when the stack starts, for
 * addresses of servers that hooks registered earlier start first. The kit's fields are there
 * once its beforeAll ran.
 */
export function useTestStack<O extends KitOptions>(
  options: O | (() => O) = {} as O,
): TestKit & WithForm<O> {
  const kit = {} as TestKit & { form?: FormView };
  let stopWithinMs: number | undefined;
  beforeAll(async () => {
    const {
      stopWithinMs: limit,
      form,
      ...stackOptions
    } = typeof options === 'function' ? options() : options;
    stopWithinMs = limit;
    kit.stack = await startTestStack(stackOptions);
    const tenant = await newTenant(kit.stack);
    Object.assign(kit, tenant, {
      readonly: await tenant.clientFor('readonly'),
      http: new ApiClient(kit.stack.url),
      newTenant: () => newTenant(kit.stack),
    });
    if (form) kit.form = await tenant.api.createForm(form);
  });
  afterAll(async () => {
    if (kit.stack) await within(kit.stack.stop(), stopWithinMs);
  });
  return kit as TestKit & WithForm<O>;
}

/** Waits for `step` at most `ms` (forever without `ms`). */
async function within(step: Promise<void>, ms: number | undefined): Promise<void> {
  if (ms === undefined) return step;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`clean-up: the test stack did not stop within ${ms} ms`);
      resolve();
    }, ms);
  });
  await Promise.race([step, timeout]).finally(() => clearTimeout(timer));
}
