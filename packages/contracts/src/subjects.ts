/**
 * Every NATS subject and JetStream name Veil uses is built here, so a rename happens in one place.
 *
 * Events:  <prefix>.evt.<context>.<streamId>   e.g. veil.evt.chat.chat-01J...
 * RPC:     <prefix>.rpc.<service>.<operation>  queue group = <service>
 * Streams: <PREFIX>_<CONTEXT>                  one JetStream stream per bounded context
 */
export const contexts = [
  'auth',
  'access',
  'user',
  'chat',
  'message',
  'attachment',
  'push',
  'report',
] as const;
export type Context = (typeof contexts)[number];

/** Stream ids become subject tokens: letters, digits, '-' and '_' only (no '.', '*', '>' or spaces). */
export const streamIdPattern = /^[A-Za-z0-9_-]{1,200}$/;

export const isValidStreamId = (streamId: string): boolean => streamIdPattern.test(streamId);

export const eventSubject = (prefix: string, context: string, streamId: string): string =>
  `${prefix}.evt.${context}.${streamId}`;

export const contextSubjects = (prefix: string, context: string): string => `${prefix}.evt.${context}.>`;

export const rpcSubject = (prefix: string, service: string, operation: string): string =>
  `${prefix}.rpc.${service}.${operation}`;

export const jetStreamName = (prefix: string, context: string): string =>
  `${prefix}_${context}`.toUpperCase().replace(/[^A-Z0-9_-]/g, '_');

/** Durable consumer names may not contain dots: `<service>__<purpose>`. */
export const durableName = (service: string, purpose: string): string => `${service}__${purpose}`;
