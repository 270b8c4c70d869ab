import jsQR from 'jsqr';
import QRCode from 'qrcode';

/**
 * The link code as a QR code and back: `qrcode` lays out the symbol (the app draws it as SVG,
 * `qr-image.tsx`), `jsqr` reads one from a camera frame (`qr-scanner.tsx`).
 */

/** The symbol's modules, row by row: true is dark. Medium error correction survives a glare or a smudge. */
export const qrModules = (text: string): boolean[][] => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, row) =>
    Array.from({ length: modules.size }, (_, column) => Boolean(modules.get(row, column))),
  );
};

/** RGBA pixels, as a canvas's `getImageData` gives them. */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** The text of a QR code found in the image, or null when there is none. */
export const readQrText = (image: Pixels): string | null =>
  jsQR(image.data, image.width, image.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
