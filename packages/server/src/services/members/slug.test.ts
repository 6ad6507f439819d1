import { describe, expect, it } from 'vitest';
import { baseSlug, isValidSlug, slugify } from './slug.js';

describe('slugs', () => {
  it.each([
    ['ann', true], ['ann-2', true], ['a1-b2-c3', true], ['Ann', false], ['ann_b', false], ['-ann', false], ['ann-', false],
    ['ann--b', false], ['', false], ['ann b', false], ['a'.repeat(100), true], ['a'.repeat(101), false],
  ])('"%s" valid: %s', (slug, valid) => expect(isValidSlug(slug)).toBe(valid));

  it.each([
    ['Zoë O\'Brien', 'zoe-obrien'], ['  Hello,  World! ', 'hello-world'], ['日本', ''], ['A__B', 'a-b'],
  ])('slugifies "%s" to "%s"', (text, slug) => expect(slugify(text)).toBe(slug));

  it('falls back to the e-mail, then to "member"', () => {
    expect(baseSlug('Ann Lee', 'x@y.z')).toBe('ann-lee');
    expect(baseSlug(undefined, 'john.doe@example.com')).toBe('john-doe');
    expect(baseSlug('日本', '日本@example.com')).toBe('member');
  });
});
