import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sniffImageType } from './sniff.js';

const picture = () => sharp({ create: { width: 4, height: 3, channels: 3, background: '#c33' } });

describe('sniffImageType', () => {
  it.each([
    ['jpeg', () => picture().jpeg().toBuffer(), 'image/jpeg'],
    ['png', () => picture().png().toBuffer(), 'image/png'],
    ['webp', () => picture().webp().toBuffer(), 'image/webp'],
    ['avif', () => picture().avif().toBuffer(), 'image/avif'],
    ['gif', () => picture().gif().toBuffer(), 'image/gif'],
  ] as const)('reads a %s picture from its bytes', async (_name, make, type) => {
    expect(sniffImageType(await make())).toBe(type);
  });

  it.each([
    ['text', Buffer.from('hello, this is not a picture')],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n')],
    ['an MP4', Buffer.from([0, 0, 0, 24, ...Buffer.from('ftypmp42'), 0, 0, 0, 0, ...Buffer.from('isommp42')])],
    ['empty bytes', Buffer.alloc(0)],
    ['a JPEG cut short', Buffer.from([0xff, 0xd8])],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffImageType(bytes)).toBeUndefined();
  });
});
