/**
 * The least of XMPP over WebSocket (RFC 7395) the load generator needs to drive a chat server:
 * open a stream, log in with SASL PLAIN, bind a resource, say it is available, then send and
 * receive `<message>` stanzas. Each WebSocket message is one whole element (RFC 7395 §3.3), so
 * stanzas are read with a pattern instead of an XML parser. Node's own WebSocket client.
 */
export interface XmppSession {
  /** Sends a chat message whose stanza id is `id`; `body` is escaped here. */
  sendMessage(to: string, id: string, body: string): void;
  close(): void;
}

const framing = 'urn:ietf:params:xml:ns:xmpp-framing';
const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The `id` of a `<message>` stanza, or null for anything else. */
export const messageIdOf = (stanza: string): string | null =>
  stanza.startsWith('<message') ? (/^<message\b[^>]*?\sid=['"]([^'"]+)['"]/.exec(stanza)?.[1] ?? null) : null;

export const openXmppSession = (options: {
  url: string;
  domain: string;
  user: string;
  password: string;
  /** Told the id of every `<message>` that arrives once the session is up. */
  onMessage?(id: string): void;
}): Promise<XmppSession> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(options.url, 'xmpp');
    const open = () => socket.send(`<open xmlns="${framing}" to="${options.domain}" version="1.0"/>`);
    let step: 'auth' | 'bind' | 'ready' = 'auth';
    const fail = (why: string) => {
      socket.close();
      reject(new Error(`XMPP login of ${options.user}: ${why}`));
    };
    socket.addEventListener('open', open);
    socket.addEventListener('error', () => fail('the WebSocket failed'));
    socket.addEventListener('message', (event) => {
      const stanza = String(event.data);
      if (step === 'ready') {
        const id = messageIdOf(stanza);
        if (id) options.onMessage?.(id);
        return;
      }
      if (stanza.startsWith('<stream:features') || stanza.startsWith('<features')) {
        if (step === 'auth') {
          const credentials = Buffer.from(`\0${options.user}\0${options.password}`).toString('base64');
          socket.send(
            `<auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="PLAIN">${credentials}</auth>`,
          );
        } else {
          socket.send(
            '<iq type="set" id="bind"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"><resource>bench</resource></bind></iq>',
          );
        }
      } else if (stanza.startsWith('<success')) {
        step = 'bind';
        open(); // a new stream after authentication
      } else if (stanza.startsWith('<failure')) {
        fail(`refused: ${stanza}`);
      } else if (stanza.startsWith('<iq') && /\sid=['"]bind['"]/.test(stanza)) {
        if (!/type=['"]result['"]/.test(stanza)) return fail(`bind refused: ${stanza}`);
        // Available presence: messages to the bare JID reach this resource.
        socket.send('<presence/>');
        step = 'ready';
        resolve({
          sendMessage: (to, id, body) =>
            socket.send(
              `<message to="${to}" id="${id}" type="chat"><body>${escapeXml(body)}</body></message>`,
            ),
          close: () => {
            if (socket.readyState === WebSocket.OPEN) socket.send(`<close xmlns="${framing}"/>`);
            socket.close();
          },
        });
      }
    });
  });
