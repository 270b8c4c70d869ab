import type { RequestHandler } from 'express';
import multer from 'multer';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import sharp from 'sharp';
import { DomainError, limits } from '@veil/contracts';
import type { BlobStore, IdGenerator } from '@veil/ports';

/**
 * Profile pictures: the multipart part is held in memory (it is capped), its type is decided
 * by its bytes, never its name or declared type, and its pixel count is capped before anything
 * decodes it. SVG is refused (it can carry script). What is stored is the picture decoded and
 * encoded again (`reencode`), never the bytes sent. Stored under a fresh key, so deleting a
 * rejected upload can never remove another user's picture.
 */
const allowed: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

const parsePictureForm = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: limits.pictureMaxBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
}).single('profilePicture');

/**
 * The form with its picture part in memory. The parser (busboy, under multer) reports a body it
 * cannot read (no boundary, a part cut short, a broken part header, a form that never ends) as a
 * plain Error; with memory storage nothing else can fail here, so every such error is the
 * client's and is answered 400, while multer's own limit errors keep their meaning.
 */
export const pictureUpload: RequestHandler = (req, res, next) =>
  parsePictureForm(req, res, (error?: unknown) => {
    if (!error || (error as { name?: string }).name === 'MulterError') return next(error);
    next(new DomainError('VALIDATION_FAILED', 'Malformed multipart/form-data body'));
  });

export const storePicture = async (
  deps: { blobs: BlobStore; ids: IdGenerator },
  file: Express.Multer.File,
): Promise<string> => {
  const invalid = () => new DomainError('UNSUPPORTED_MEDIA', 'Please upload a valid image file.');
  const type = await fileTypeFromBuffer(file.buffer);
  const extension = type ? allowed[type.mime] : undefined;
  if (!type || !extension) throw invalid();
  let dimensions: { width: number; height: number };
  try {
    dimensions = imageSize(file.buffer);
  } catch {
    throw invalid();
  }
  const { width, height } = dimensions;
  if (
    !width ||
    !height ||
    width > limits.pictureMaxSide ||
    height > limits.pictureMaxSide ||
    width * height > limits.pictureMaxPixels
  ) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `Image is too large: at most ${limits.pictureMaxPixels} pixels`,
    );
  }
  const pixelsOnly = await reencode(file.buffer, type.mime).catch(() => {
    throw invalid();
  });
  const key = `avatars/${deps.ids.next()}.${extension}`;
  await deps.blobs.put(key, new Uint8Array(pixelsOnly), type.mime);
  return key;
};

/**
 * Only the pixels survive: EXIF (GPS position, camera and serial numbers, time), XMP, IPTC,
 * ICC profiles and text chunks are dropped, so they never leave the uploader's device through
 * Veil. The EXIF orientation is applied to the pixels first, since its tag goes too. Animated
 * GIF and WebP keep their frames.
 */
const reencode = (bytes: Buffer, mime: string): Promise<Buffer> => {
  const animated = mime === 'image/gif' || mime === 'image/webp';
  const decoded = sharp(bytes, { limitInputPixels: limits.pictureMaxPixels, animated });
  const image = animated ? decoded : decoded.autoOrient();
  switch (mime) {
    case 'image/png':
      return image.png().toBuffer();
    case 'image/jpeg':
      return image.jpeg({ quality: 90 }).toBuffer();
    case 'image/webp':
      return image.webp({ quality: 90 }).toBuffer();
    default:
      return image.gif().toBuffer();
  }
};

/** Runs `work` with the uploaded picture stored; a failure deletes it again, so no orphan blob stays. */
export const withStoredPicture = async <T>(
  deps: { blobs: BlobStore; ids: IdGenerator },
  file: Express.Multer.File | undefined,
  work: (key: string | null) => Promise<T>,
): Promise<T> => {
  const key = file ? await storePicture(deps, file) : null;
  try {
    return await work(key);
  } catch (error) {
    if (key) await deps.blobs.delete(key);
    throw error;
  }
};
