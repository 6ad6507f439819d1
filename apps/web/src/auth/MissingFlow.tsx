import { Notice } from '../ui/Notice.js';

/** Shown when a hosted page is opened without the application that sent the member here. */
export function MissingFlow({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <Notice kind="error">Open this page from the store’s “Sign in” button; the link you used is incomplete.</Notice>
    </>
  );
}
