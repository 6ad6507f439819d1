import { NotFound } from '../ui/NotFound.js';

export default function NotFoundPage() {
  return <NotFound />;
}
