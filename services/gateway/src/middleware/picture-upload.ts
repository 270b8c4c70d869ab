import type { RequestHandler } from 'express';
import multer from 'multer';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { DomainError, limits } from '@veil/contracts';
import type { BlobStore, IdGenerator } from '@veil/ports';

/**
 * Profile pictures: the multipart part is held in memory (it is capped), its type is decided
 * by its bytes, never its name or declared type, and its pixel count is capped before anything
 * decodes it. SVG is refused (it can carry script). Stored under a fresh key, so deleting a
 * rejected upload can never remove another user's picture.
 */
const allowed: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export const pictureKeyPattern = /^avatars\/[0-9A-Za-z]{1,64}\.(png|jpg|webp|gif)$/;

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
  const key = `avatars/${deps.ids.next()}.${extension}`;
  await deps.blobs.put(key, new Uint8Array(file.buffer), type.mime);
  return key;
};
