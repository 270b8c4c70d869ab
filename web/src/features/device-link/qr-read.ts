import jsQR from 'jsqr';

/** RGBA pixels, as a canvas's `getImageData` gives them. */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * The text of a QR code found in the image (a camera frame), or null when there is none. Loaded
 * with the scanner only, so the decoder stays out of the app's first download.
 */
export const readQrText = (image: Pixels): string | null =>
  jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
