import { describe, expect, it } from 'vitest';
import { pushEndpointProblem } from './push-endpoint.ts';

const strict = { allowLocal: false };
const local = { allowLocal: true };

describe('push endpoints', () => {
  it('accepts public https push services', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QH1',
      'https://8.8.8.8/push',
    ])
      expect(pushEndpointProblem(endpoint, strict)).toBeNull();
  });

  it('refuses plain http, credentials and this machine or its network', () => {
    expect(pushEndpointProblem('http://fcm.googleapis.com/x', strict)).toMatch(/https/);
    expect(pushEndpointProblem('not a url', strict)).toMatch(/URL/);
    expect(pushEndpointProblem('https://user:pw@push.example.com/x', strict)).toMatch(/credentials/);
    for (const host of [
      'localhost',
      'push.localhost',
      'printer.local',
      'intranet',
      '127.0.0.1',
      '127.8.0.1',
      '0.0.0.0',
      '10.0.0.5',
      '172.16.4.4',
      '172.31.255.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '[::1]',
      '[::]',
      '[fd12::1]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
    ])
      expect(pushEndpointProblem(`https://${host}/push`, strict), host).toMatch(/public host/);
    expect(pushEndpointProblem('https://172.32.0.1/push', strict)).toBeNull();
  });

  it('accepts local http endpoints when configured for development', () => {
    expect(pushEndpointProblem('http://127.0.0.1:4000/push/1', local)).toBeNull();
    expect(pushEndpointProblem('https://localhost/push', local)).toBeNull();
    expect(pushEndpointProblem('ftp://127.0.0.1/push', local)).toMatch(/https/);
  });
});
