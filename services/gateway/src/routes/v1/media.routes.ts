import { Router } from 'express';
import type { BlobStore } from '@veil/ports';
import { DomainError } from '@veil/contracts';

/**
 * `/api/v1/media/avatars/<key>`: profile pictures under a stable URL. Keys are never reused, so
 * responses are cacheable forever; `nosniff` and a no-script CSP keep a crafted file inert.
 */
export const mediaRoutes = ({ blobs }: { blobs: BlobStore }): Router => {
  const router = Router();
  router.get('/avatars/:file', async (req, res) => {
    if (!/^[0-9A-Za-z]{1,64}\.(png|jpg|webp|gif)$/.test(req.params.file)) {
      throw new DomainError('NOT_FOUND', 'Not found');
    }
    const blob = await blobs.get(`avatars/${req.params.file}`);
    if (!blob) throw new DomainError('NOT_FOUND', 'Not found');
    res
      .status(200)
      .set({
        'Content-Type': blob.contentType,
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      })
      .end(Buffer.from(blob.bytes));
  });
  return router;
};
