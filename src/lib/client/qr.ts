// A QR code of a text (an address to receive at) as the modules of qrcode-generator, drawn by the
// page as one SVG path: no markup injected, nothing fetched.
import qrcode from 'qrcode-generator';

export interface QrCode {
  /** Modules per side, without the quiet zone. */
  size: number;
  /** SVG path of the dark modules, one unit per module, offset by the quiet zone. */
  path: string;
  /** Modules per side with the quiet zone on every side (the SVG's viewBox). */
  box: number;
  isDark(row: number, col: number): boolean;
}

/** The quiet zone readers need around a code, in modules (the standard asks for 4). */
export const QUIET_ZONE = 4;
/** The longest text encoded (an address is far shorter; bounded so a page never draws a huge code). */
export const MAX_QR_TEXT = 256;

/** The QR code of `text` (byte mode, error correction M, the smallest version that fits). */
export function qrCodeOf(text: string): QrCode {
  if (text.length > MAX_QR_TEXT) throw new Error(`A QR code here holds at most ${MAX_QR_TEXT} characters, not ${text.length}`);
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  const size = code.getModuleCount();
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) if (code.isDark(row, col)) parts.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
  }
  return { size, path: parts.join(''), box: size + 2 * QUIET_ZONE, isDark: (row, col) => code.isDark(row, col) };
}
