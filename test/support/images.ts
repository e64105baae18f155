import sharp from 'sharp';

/** A PNG picture for upload tests: one colour, or noise that does not compress (a big file from a small canvas). */
export function png(width: number, height: number, noise = false): Promise<Buffer> {
  if (noise) {
    const raw = Buffer.alloc(width * height * 3);
    for (let i = 0; i < raw.length; i += 1) raw[i] = (i * 7919 + (i >> 3) * 104729) % 251;
    return sharp(raw, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
  }
  return sharp({ create: { width, height, channels: 3, background: '#ff0088' } })
    .png()
    .toBuffer();
}
