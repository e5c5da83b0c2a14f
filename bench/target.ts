/** One target of the bench's report: what was measured against its limit. */
export type Target = { name: string; measured: number; limit: string; holds: boolean };
