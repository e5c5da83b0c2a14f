import { createRequire } from 'node:module';
import type * as ProtoModule from '@temporalio/proto';
import type * as PatchModule from '@temporalio/proto/lib/patch-protobuf-root';

// Workflow histories as the JSON `temporal workflow show --output json` writes, to and from the
// SDK's History. The SDK's own historyToJSON/historyFromJSON (@temporalio/common/lib/proto-utils)
// throw "type must be a Type" in this install: @grpc/proto-loader holds the root protobufjs (7),
// so @temporalio/common and @temporalio/proto each get a copy of protobufjs 8, and protojson
// checks its types with `instanceof` against its own copy. Here both sides are the copy that
// @temporalio/proto loads.

export type History = ProtoModule.temporal.api.history.v1.IHistory;

type ProtoJson = {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): History;
};
// Loaded with require: the generated module must be the CommonJS object, not an ES namespace.
const requireHere = createRequire(__filename);
const proto = requireHere('@temporalio/proto') as typeof ProtoModule;
const { patchProtobufRoot } = requireHere(
  '@temporalio/proto/lib/patch-protobuf-root',
) as typeof PatchModule;
const requireFromProto = createRequire(requireHere.resolve('@temporalio/proto'));
const protojson = requireFromProto('protobufjs/ext/protojson') as ProtoJson;
// The patched root is a protobufjs Root; its generated typings leave out lookupType.
const root = patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown };
const historyType = root.lookupType('temporal.api.history.v1.History');

export function historyToJSON(history: History): string {
  const message = proto.temporal.api.history.v1.History.fromObject(history);
  return JSON.stringify(protojson.toJson(historyType, message), null, 2);
}

/** Unknown fields (a newer server's) are ignored, as the SDK does. */
export function historyFromJSON(json: unknown): History {
  return protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
}
