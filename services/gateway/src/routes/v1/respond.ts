import type { Response } from 'express';

/** The spec's success envelope: `{ success: true, message, data }`. */
export const respond = <T>(res: Response, status: number, message: string, data: T): void => {
  res.status(status).json({ success: true, message, data });
};
