// The receive QR code reads back as the address with a real decoder (jsQR), so a phone's camera would too.
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { MAX_QR_TEXT, QUIET_ZONE, qrCodeOf } from './qr';

/** The code drawn as RGBA pixels, `scale` per module, quiet zone included. */
function pixels(code: ReturnType<typeof qrCodeOf>, scale = 4) {
  const side = code.box * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const row = Math.floor(y / scale) - QUIET_ZONE;
      const col = Math.floor(x / scale) - QUIET_ZONE;
      if (row >= 0 && col >= 0 && row < code.size && col < code.size && code.isDark(row, col)) data.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
    }
  }
  return { data, side };
}

describe('qrCodeOf', () => {
  it('encodes an address that a QR reader reads back exactly', () => {
    for (const address of ['5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty', '0xd43593c715fdd31c61141abd04a99fd6822c8558']) {
      const code = qrCodeOf(address);
      const { data, side } = pixels(code);
      expect(jsQR(data, side, side)?.data).toBe(address);
    }
  });

  it('draws one square per dark module inside the quiet zone', () => {
    const code = qrCodeOf('5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty');
    let dark = 0;
    for (let r = 0; r < code.size; r++) for (let c = 0; c < code.size; c++) if (code.isDark(r, c)) dark++;
    expect(code.path.match(/M/g)).toHaveLength(dark);
    expect(code.box).toBe(code.size + 2 * QUIET_ZONE);
    expect(code.path.startsWith(`M${QUIET_ZONE}`)).toBe(true);
  });

  it('refuses a text longer than the bound', () => {
    expect(() => qrCodeOf('x'.repeat(MAX_QR_TEXT + 1))).toThrow(/at most 256 characters/);
  });
});
