import { useTranslation } from 'react-i18next';
import { useEffect, useRef, useState } from 'react';
import { readQrText } from '../qr-read.ts';

interface QrScannerProps {
  /** Called with each text found; return true to stop scanning (it was a code). */
  onText: (text: string) => Promise<boolean>;
  onClose: () => void;
}

/**
 * The camera (the back one on a phone), read frame by frame for a QR code until `onText`
 * accepts one. Without a camera, or without permission, it says so and the code can be typed.
 */
export const QrScanner = ({ onText, onClose }: QrScannerProps) => {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState('');
  const { t } = useTranslation();
  const [hint, setHint] = useState(() => t('link.pointCamera'));
  const accept = useRef(onText);
  accept.current = onText;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let frame = 0;
    let stopped = false;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });

    const scan = async () => {
      const element = video.current;
      if (stopped || !element || !context) return;
      if (element.readyState >= element.HAVE_ENOUGH_DATA) {
        canvas.width = element.videoWidth;
        canvas.height = element.videoHeight;
        context.drawImage(element, 0, 0);
        const text = readQrText(context.getImageData(0, 0, canvas.width, canvas.height));
        if (text) {
          if (await accept.current(text)) return;
          setHint(t('link.notLinkQr'));
        }
      }
      frame = requestAnimationFrame(() => void scan());
    };

    if (!navigator.mediaDevices?.getUserMedia) {
      setProblem(t('link.noCamera'));
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (media) => {
        stream = media;
        if (stopped || !video.current) return;
        video.current.srcObject = media;
        await video.current.play();
        void scan();
      })
      .catch(() => setProblem(t('link.cameraFailed')));
    return () => {
      stopped = true;
      cancelAnimationFrame(frame);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  return (
    <div className="qr-scanner">
      {problem ? (
        <p className="form__error" role="alert">
          {problem}
        </p>
      ) : (
        <>
          <video ref={video} className="qr-scanner__video" muted playsInline aria-label={t('link.camera')} />
          <p className="panel__hint" role="status">
            {hint}
          </p>
        </>
      )}
      <button type="button" className="button" onClick={onClose}>
        {t('link.stopScanning')}
      </button>
    </div>
  );
};
