/** The browser side of silent sign-in: a hidden iframe and `message` events. */

export interface FrameHost {
  /** Loads `url` in a hidden frame; the returned handle removes it. */
  open(url: string): { close(): void };
  /** Subscribes to `message` event data; returns the unsubscribe function. */
  listen(onMessage: (data: unknown) => void): () => void;
}

export function browserFrameHost(): FrameHost {
  const doc = globalThis.document;
  if (!doc) throw new Error('Silent sign-in needs a browser (document and window)');
  return {
    open(url) {
      const frame = doc.createElement('iframe');
      frame.style.display = 'none';
      frame.src = url;
      doc.body.appendChild(frame);
      return { close: () => frame.remove() };
    },
    listen(onMessage) {
      const handler = (event: MessageEvent): void => onMessage(event.data);
      globalThis.addEventListener('message', handler);
      return () => globalThis.removeEventListener('message', handler);
    },
  };
}
