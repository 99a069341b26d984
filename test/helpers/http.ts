import { connect as netConnect } from 'node:net';

/** Small fetch wrappers so tests read as requests and assertions. */
export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function send(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, body, text };
}

export function get(url: string, key?: string, headers: Record<string, string> = {}): Promise<Reply> {
  return send(url, { headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } });
}

export function post(url: string, payload: string, key?: string, headers: Record<string, string> = {}): Promise<Reply> {
  return send(url, {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...headers },
  });
}

/**
 * One request written raw on its own connection (for what node's client will not send: an
 * oversized header, CONNECT to a path); the whole answer, once the server closes the connection.
 */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}
