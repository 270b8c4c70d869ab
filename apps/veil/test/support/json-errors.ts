import { expect } from 'vitest';
import type { ApiResponse } from './api-client.ts';

/** A refused request: the status, and the `{ success: false, code, message }` body (`code`, `message` when given). */
export const expectJsonError = (res: ApiResponse, status: number, code?: string, message?: RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({
    success: false,
    code: code ?? expect.any(String),
    message: expect.any(String),
  });
  if (message) expect(res.body.message).toMatch(message);
};
