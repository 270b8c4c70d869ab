import QRCode from 'qrcode';

/** The symbol's modules, row by row: true is dark. Medium error correction survives a glare or a smudge. */
export const qrModules = (text: string): boolean[][] => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, row) =>
    Array.from({ length: modules.size }, (_, column) => Boolean(modules.get(row, column))),
  );
};
