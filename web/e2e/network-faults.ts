import type { Page, WebSocketRoute } from 'playwright-core';

/**
 * A browser fires `error`, then `close`, on a websocket that cannot connect. Playwright's
 * `route.close()` on a socket that never opened fires only `close`, which Socket.IO's client does
 * not count as a failed attempt: it waits out its 20 s connect timeout before the next one, and
 * a test saw the page reconnect only when no attempt fell in its time offline. Registered after
 * `routeWebSocket`, this wraps Playwright's mock so a refused socket reports the error first.
 */
const refusedSocketsFailAsInABrowser = () => {
  const Routed = window.WebSocket;
  class FailingLikeABrowser extends Routed {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      let opened = false;
      this.addEventListener('open', () => (opened = true));
      this.addEventListener('close', () => opened || this.dispatchEvent(new Event('error')));
    }
  }
  window.WebSocket = FailingLikeABrowser;
};

/**
 * Fault injection on one page's network: its websocket can be cut and kept from reconnecting
 * (`cut`), then let through again (`restore`). Call before the page loads the app.
 */
export const cuttableSocket = async (page: Page) => {
  let down = false;
  const routes = new Set<{ page: WebSocketRoute; server: WebSocketRoute }>();
  await page.routeWebSocket(/\/socket\.io\//, (route) => {
    if (down) return void route.close();
    routes.add({ page: route, server: route.connectToServer() });
  });
  await page.addInitScript(refusedSocketsFailAsInABrowser);
  return {
    async cut() {
      down = true;
      for (const route of routes) {
        await route.server.close();
        await route.page.close();
      }
      routes.clear();
    },
    restore() {
      down = false;
    },
  };
};

/**
 * A silent network drop on one page: HTTP requests fail as they do without a network, and the
 * websocket stays open but carries nothing either way, so the page still thinks it is connected
 * (Socket.IO notices only when its heartbeat runs out, 45 s later). Call before the page loads
 * the app; `drop` and `restore` switch it.
 */
export const droppableNetwork = async (page: Page) => {
  let dropped = false;
  await page.routeWebSocket(/\/socket\.io\//, (route) => {
    const server = route.connectToServer();
    route.onMessage((message) => dropped || server.send(message));
    server.onMessage((message) => dropped || route.send(message));
  });
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    (route) => (dropped ? route.abort('internetdisconnected') : route.continue()),
  );
  return {
    drop() {
      dropped = true;
    },
    restore() {
      dropped = false;
    },
  };
};
