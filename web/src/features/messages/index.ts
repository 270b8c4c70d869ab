/** The messages feature's public entry point: other features import it only from here. */
export { callRecordText } from './call-record-text.ts';
export {
  decryptAllForUser,
  decryptForUser,
  encryptForGroup,
  encryptForIndividual,
  readSealedForUser,
  withoutCommitment,
} from './crypto.ts';
export { type DisplayMessage } from './display-message.ts';
export { orderFlags, type OrderFlag } from './message-order.ts';
export { messagingApi, sendMessageOverHttp } from './messaging.api.ts';
export { sendFailureText } from './send-errors.ts';
