// What a digital file may be: its size, its type (an allow-list, with the file name's extension
// matching the type the browser sent), and a name safe to show and to send back.
import { ApiError } from '../../platform/errors.js';
import { replaceControls } from './links.js';

/** The largest file a product takes (streamed to storage; a longer stream is cut off with a 413). */
export const MAX_FILE_BYTES = 200 * 1024 * 1024;
export const MAX_FILES_PER_PRODUCT = 20;
const MAX_NAME_LENGTH = 200;

/** Content types a digital product may deliver, each with the extensions its files carry. */
export const ALLOWED_TYPES: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'application/zip': ['zip'],
  'application/x-zip-compressed': ['zip'],
  'application/epub+zip': ['epub'],
  'audio/mpeg': ['mp3'],
  'audio/wav': ['wav'],
  'audio/flac': ['flac'],
  'video/mp4': ['mp4', 'm4v'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'text/plain': ['txt'],
  'text/csv': ['csv'],
};

/** The cleaned file name, or a 400/413 saying what is wrong with the upload. */
export function checkUpload(fileName: string, contentType: string, declaredSize: number | undefined): string {
  const name = replaceControls(fileName, '').replace(/[/\\]/g, '_').trim();
  if (name === '' || name.length > MAX_NAME_LENGTH) {
    throw ApiError.validation([{ field: 'fileName', rule: 'MAX_LENGTH', description: `must be 1 to ${MAX_NAME_LENGTH} characters` }]);
  }
  const extensions = ALLOWED_TYPES[contentType];
  if (!extensions) {
    throw new ApiError(415, 'FILE_TYPE_NOT_ALLOWED', `Files of type ${contentType || '(none)'} cannot be sold; allowed: ${Object.keys(ALLOWED_TYPES).join(', ')}`, { contentType });
  }
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  if (!extension || !extensions.includes(extension)) {
    throw ApiError.validation([{ field: 'fileName', rule: 'FORMAT', description: `a ${contentType} file's name ends in .${extensions.join(' or .')}` }]);
  }
  if (declaredSize !== undefined && declaredSize > MAX_FILE_BYTES) {
    throw new ApiError(413, 'FILE_TOO_LARGE', `A file may be at most ${MAX_FILE_BYTES / (1024 * 1024)} MB`, { maxBytes: MAX_FILE_BYTES });
  }
  if (declaredSize === 0) throw ApiError.validation([{ field: 'file', rule: 'MIN_SIZE', description: 'the file is empty' }]);
  return name;
}

/** "1.4 MB", "820 KB", "12 bytes". */
export function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
