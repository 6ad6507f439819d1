// What an uploaded picture is, read from its first bytes — never from the name or the header the
// browser sent, which a renamed file or a hand-made request can fake.

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/avif' | 'image/gif';

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** The picture's type, or undefined when the bytes are none of the accepted formats. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(ascii(bytes, 0, 6))) return 'image/gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === 'ftyp') {
    // An ISO media file: AVIF when its major brand or one of its compatible brands says so.
    const boxSize = Math.min(((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0, bytes.length, 256);
    const brands = [ascii(bytes, 8, 12)];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
    if (brands.some((b) => b === 'avif' || b === 'avis')) return 'image/avif';
  }
  return undefined;
}
