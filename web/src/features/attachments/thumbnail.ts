import { bytesToBase64, type AttachmentThumbnail } from '@veil/crypto';

/**
 * A small JPEG of an image or a video's first frame, made in the browser with a canvas and sent
 * inside the encrypted message, so the chat shows it at once. Kept to a few KB: several must fit
 * in one message's ciphertext. Anything the browser cannot decode gets no thumbnail.
 */
const maxSide = 240;
const quality = 0.6;

const frameOfVideo = (file: File): Promise<HTMLVideoElement> =>
  new Promise((resolve, reject) => {
    const video = document.createElement('video');
    video.muted = true;
    video.preload = 'auto';
    video.src = URL.createObjectURL(file);
    video.onloadeddata = () => {
      video.currentTime = Math.min(0.1, video.duration / 2 || 0);
    };
    video.onseeked = () => resolve(video);
    video.onerror = () => reject(new Error('This video cannot be decoded here'));
  });

const drawScaled = async (
  source: CanvasImageSource,
  width: number,
  height: number,
): Promise<AttachmentThumbnail> => {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  canvas.getContext('2d')!.drawImage(source, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  if (!blob) throw new Error('No thumbnail');
  return {
    jpeg: bytesToBase64(new Uint8Array(await blob.arrayBuffer())),
    width: canvas.width,
    height: canvas.height,
  };
};

export const makeThumbnail = async (file: File): Promise<AttachmentThumbnail | undefined> => {
  try {
    if (file.type.startsWith('image/')) {
      const bitmap = await createImageBitmap(file);
      try {
        return await drawScaled(bitmap, bitmap.width, bitmap.height);
      } finally {
        bitmap.close();
      }
    }
    if (file.type.startsWith('video/')) {
      const video = await frameOfVideo(file);
      try {
        return await drawScaled(video, video.videoWidth, video.videoHeight);
      } finally {
        URL.revokeObjectURL(video.src);
      }
    }
  } catch {
    // Not decodable here: the file is still sent, shown as a file.
  }
  return undefined;
};

export const thumbnailUrl = (thumbnail: AttachmentThumbnail) => `data:image/jpeg;base64,${thumbnail.jpeg}`;
