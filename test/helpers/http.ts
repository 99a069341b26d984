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
