// Types of bin/check-node.js (plain CommonJS, so that an old Node parses it).
export declare function nodeVersionProblem(version: string, minimum: string): string | null;
export declare function exitOnOldNode(): void;
export declare const RECOMMENDED_MAJOR: number;
