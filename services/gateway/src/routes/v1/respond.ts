import type { Response } from 'express';

/** The success envelope (docs/api.md): `{ success: true, message, data }`. */
export const respond = <T>(res: Response, status: number, message: string, data: T): void => {
  res.status(status).json({ success: true, message, data });
};
