import type { MessageView } from '@veil/contracts';
import type { VeilSocket } from '../../../lib/realtime.ts';

/** A message that just arrived, as every part of the app that follows new messages gets it. */
export interface NewMessage<Read, Reader> {
  message: MessageView;
  /** Sent by this account (from this browser or another), not received from someone else. */
  own: boolean;
  /** The message checked and decrypted for `reader`: once per reader, whoever asks first. */
  read(reader: Reader): Promise<Read>;
}

/** What the router needs of a socket: to follow and stop following its events. */
type MessageSocket = Pick<VeilSocket, 'on' | 'off'>;

/**
 * The one place new messages enter the web client. The socket is listened to once, however many
 * parts of the app follow (the open chat, the chat list, unread counts, search, notifications,
 * seen reports); each message is read (checked and decrypted) at most once per reader and handed
 * to every follower in the order they started following. Followers get only messages from
 * others unless they ask for `own` sends too.
 */
export const createNewMessageRouter = <Read, Reader extends { userId: string }>(
  socket: MessageSocket,
  readMessage: (message: MessageView, reader: Reader) => Promise<Read>,
) => {
  type Follower = (arrived: NewMessage<Read, Reader>) => void;
  const followers = new Map<Follower, { own: boolean }>();
  const deliver = (message: MessageView, own: boolean) => {
    const reads = new Map<string, Promise<Read>>();
    const read = (reader: Reader) => {
      let reading = reads.get(reader.userId);
      if (!reading) reads.set(reader.userId, (reading = readMessage(message, reader)));
      return reading;
    };
    const arrived = { message, own, read };
    for (const [follower, wants] of [...followers]) if (!own || wants.own) follower(arrived);
  };
  const onReceived = ({ message }: { message: MessageView }) => deliver(message, false);
  const onSent = ({ message }: { message: MessageView }) => deliver(message, true);

  return {
    /** Follows new messages until the returned function is called. */
    follow(follower: Follower, { own = false } = {}): () => void {
      if (followers.size === 0) {
        socket.on('message received', onReceived);
        socket.on('message sent', onSent);
      }
      followers.set(follower, { own });
      return () => {
        if (!followers.delete(follower) || followers.size > 0) return;
        socket.off('message received', onReceived);
        socket.off('message sent', onSent);
      };
    },
  };
};
