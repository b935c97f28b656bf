import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import SignaturePad, { type PointGroup } from 'signature_pad';
import { consentMessages } from '../../../../domain/consent-form';

// The signature image of spec 2 section 9 and DESIGN.md section 7: 500 x 100 pixels, PNG.
const IMAGE_WIDTH = 500;
const IMAGE_HEIGHT = 100;

interface Props {
  /** The accepted signature (a PNG data URL), or null until one is accepted. */
  value: string | null;
  onChange(value: string | null): void;
  /** The form's message when it was submitted without an accepted signature. */
  error?: string;
  /** The label of the button that confirms the drawing. */
  confirmLabel: string;
  /** The form's message for a signature missing, which names `confirmLabel`. */
  unsignedMessage: string;
  disabled?: boolean;
}

/** Sizes the canvas to its box at the screen's pixel density and draws back what it held. */
function fitCanvas(
  canvas: HTMLCanvasElement,
  pad: SignaturePad,
  strokes: PointGroup[],
  fromWidth: number,
  accepted: string | null,
) {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const width = canvas.offsetWidth;
  const height = canvas.offsetHeight;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.getContext('2d')?.scale(ratio, ratio);
  pad.clear();
  if (strokes.length > 0) {
    const k = fromWidth > 0 ? width / fromWidth : 1;
    pad.fromData(
      strokes.map((group) => ({
        ...group,
        points: group.points.map((p) => ({ ...p, x: p.x * k, y: p.y * k })),
      })),
    );
  } else if (accepted) {
    void pad.fromDataURL(accepted, { width, height });
  }
}

/** The drawing as the 500 x 100 PNG that is signed, whatever the screen's size and density. */
function signatureImage(canvas: HTMLCanvasElement): string {
  const image = document.createElement('canvas');
  image.width = IMAGE_WIDTH;
  image.height = IMAGE_HEIGHT;
  image.getContext('2d')?.drawImage(canvas, 0, 0, IMAGE_WIDTH, IMAGE_HEIGHT);
  return image.toDataURL('image/png');
}

/**
 * A drawn signature (signature_pad): 500 x 100 CSS pixels, narrower on a phone with the same 5:1
 * shape. Only an accepted signature counts: drawing again or clearing takes the acceptance back.
 */
export function SignaturePadField({
  value,
  onChange,
  error,
  confirmLabel,
  unsignedMessage,
  disabled,
}: Props) {
  const id = useId();
  const labelId = `${id}-label`;
  const messageId = `${id}-message`;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  // What was drawn survives the pad being rebuilt (a tab hidden and shown again).
  const strokesRef = useRef<PointGroup[]>([]);
  const widthRef = useRef(0);
  const valueRef = useRef(value);
  const onChangeRef = useRef(onChange);
  const [emptyError, setEmptyError] = useState<string | null>(null);

  useEffect(() => {
    valueRef.current = value;
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const canvas = canvasRef.current;
    // No 2D context (a test's DOM without canvas): nothing to draw on.
    if (!canvas?.getContext('2d')) return;
    const pad = new SignaturePad(canvas, { penColor: '#1a1b1e', minWidth: 0.8, maxWidth: 2.4 });
    padRef.current = pad;
    fitCanvas(canvas, pad, strokesRef.current, widthRef.current, valueRef.current);
    widthRef.current = canvas.offsetWidth;

    const onBeginStroke = () => {
      setEmptyError(null);
      if (valueRef.current !== null) onChangeRef.current(null);
    };
    pad.addEventListener('beginStroke', onBeginStroke);

    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            const width = canvas.offsetWidth;
            if (width === 0 || width === widthRef.current) return;
            fitCanvas(canvas, pad, pad.toData(), widthRef.current, valueRef.current);
            widthRef.current = width;
          });
    observer?.observe(canvas);

    return () => {
      strokesRef.current = pad.toData();
      observer?.disconnect();
      pad.removeEventListener('beginStroke', onBeginStroke);
      pad.off();
      padRef.current = null;
    };
  }, []);

  const clear = () => {
    padRef.current?.clear();
    strokesRef.current = [];
    setEmptyError(null);
    onChange(null);
  };

  const accept = () => {
    const pad = padRef.current;
    const canvas = canvasRef.current;
    if (!pad || !canvas || pad.isEmpty()) {
      setEmptyError(unsignedMessage);
      onChange(null);
      return;
    }
    setEmptyError(null);
    onChange(signatureImage(canvas));
  };

  const shownError = value ? null : (emptyError ?? error ?? null);

  return (
    <Stack gap={6}>
      <Text id={labelId} size="sm" fw={500}>
        Signature: draw with the mouse, a finger or a pen
      </Text>
      <Box
        w="100%"
        maw={IMAGE_WIDTH + 2}
        bg="white"
        style={{
          border: `1px solid ${shownError ? 'var(--mantine-color-error)' : 'var(--mantine-color-gray-5)'}`,
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        <canvas
          ref={canvasRef}
          data-testid="signature-canvas"
          role="img"
          aria-labelledby={labelId}
          aria-describedby={messageId}
          aria-invalid={shownError ? true : undefined}
          // Focus lands here when the form is refused for want of a signature.
          tabIndex={-1}
          style={{ display: 'block', width: '100%', aspectRatio: '5 / 1', touchAction: 'none' }}
        />
      </Box>
      <Group gap="xs">
        <Button type="button" variant="default" onClick={clear} disabled={disabled}>
          Clear
        </Button>
        <Button type="button" variant="outline" onClick={accept} disabled={disabled}>
          {confirmLabel}
        </Button>
      </Group>
      <div id={messageId}>
        <div role="status">
          {value && (
            // green.9 is under 4.5:1 on white for small text; teal.9 passes.
            <Text size="sm" fw={600} c="teal.9">
              {consentMessages.signatureAccepted}
            </Text>
          )}
        </div>
        {shownError && (
          <Text size="sm" c="red.9" role="alert">
            {shownError}
          </Text>
        )}
      </div>
    </Stack>
  );
}
