import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/**
 * What Chromium's fake camera shows (`--use-file-for-fake-video-capture`): a one-frame Y4M video
 * it loops. Chromium opens the file when a page starts the camera, so a test can launch the
 * browser on a blank feed and write the picture it needs just before the page asks for it.
 */
const width = 640;
const height = 480;
const white = 235;
const black = 16;

const writeFrame = (file: string, luma: Uint8Array) => {
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\nFRAME\n`);
  // 4:2:0 colour planes at half size, neutral (grey): the picture is black and white.
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  writeFileSync(file, Buffer.concat([header, luma, chroma]));
};

/** A plain white picture, as a camera pointed at a wall sees. */
export const writeBlankFeed = (file: string): void =>
  writeFrame(file, new Uint8Array(width * height).fill(white));

/** The QR code of `text`, centred, with its quiet zone, as a phone held over a screen sees it. */
export const writeQrFeed = (file: string, text: string): void => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.floor((height * 0.8) / (modules.size + 8));
  const left = Math.floor((width - modules.size * scale) / 2);
  const top = Math.floor((height - modules.size * scale) / 2);
  const luma = new Uint8Array(width * height).fill(white);
  for (let row = 0; row < modules.size; row += 1)
    for (let column = 0; column < modules.size; column += 1) {
      if (!modules.get(row, column)) continue;
      for (let y = 0; y < scale; y += 1)
        luma.fill(
          black,
          (top + row * scale + y) * width + left + column * scale,
          (top + row * scale + y) * width + left + (column + 1) * scale,
        );
    }
  writeFrame(file, luma);
};
