import { useMemo } from 'react';
import { qrModules } from '../qr-draw.ts';

/** `text` as a QR code: one SVG path of dark modules on white, with the standard quiet zone. */
export const QrImage = ({ text, label }: { text: string; label: string }) => {
  const modules = useMemo(() => qrModules(text), [text]);
  const quiet = 4;
  const side = modules.length + quiet * 2;
  const path = modules
    .flatMap((row, r) => row.map((dark, c) => (dark ? `M${c + quiet} ${r + quiet}h1v1h-1z` : '')))
    .join('');
  return (
    <svg
      className="qr-image"
      viewBox={`0 0 ${side} ${side}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
};
