/** A small HTTP client for the `/api/v1` surface, over real HTTP (Node's fetch). */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
  /** Raw body with its content type (for malformed-input tests). */
  raw?: { body: string | Uint8Array; contentType: string };
  /** Extra request headers (e.g. X-Forwarded-For behind a trusted proxy). */
  headers?: Record<string, string>;
}

export const createApi = (baseUrl: string) => {
  const call = async <T = any>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    let body: BodyInit | undefined;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    } else if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.body as BodyInit;
    }
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: tests assert on that themselves
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    call,
    get: <T = any>(path: string, token?: string) => call<T>('GET', path, token ? { token } : {}),
    post: <T = any>(path: string, json: unknown, token?: string) =>
      call<T>('POST', path, { json, ...(token ? { token } : {}) }),
    put: <T = any>(path: string, json: unknown, token?: string) =>
      call<T>('PUT', path, { json, ...(token ? { token } : {}) }),
  };
};

export type Api = ReturnType<typeof createApi>;
