/**
 * Whether a browser's push endpoint may be posted to. Real push services are public HTTPS hosts;
 * anything else (plain http, this machine, a private network) would let an account make the
 * server post to places it should not reach. Development and tests run a push service on this
 * machine, which `allowLocal` permits.
 */
export const pushEndpointProblem = (endpoint: string, { allowLocal }: { allowLocal: boolean }) => {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint must be a URL';
  }
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:'))
    return 'endpoint must be an https URL';
  if (url.username || url.password) return 'endpoint must not carry credentials';
  if (!allowLocal && isLocalHost(url.hostname)) return 'endpoint must be a public host';
  return null;
};

const isLocalHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  if (!host.includes('.') && !host.includes(':')) return true; // a bare name resolves on the local network
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host)?.slice(1).map(Number);
  if (v4) {
    const [a, b] = v4 as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  if (host.includes(':')) {
    // Loopback, unspecified, unique-local (fc00::/7), link-local (fe80::/10), IPv4-mapped.
    return (
      host === '::1' ||
      host === '::' ||
      /^f[cd][0-9a-f]{0,2}:/.test(host) ||
      /^fe[89ab][0-9a-f]?:/.test(host) ||
      host.startsWith('::ffff:')
    );
  }
  return false;
};
