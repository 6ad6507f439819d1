import { Link } from '../router/Router.js';
import { PageHead } from './ui.js';

export default function NotFoundPage() {
  return (
    <>
      <PageHead title="No such page" />
      <p>This part of the back office does not exist. <Link to="/admin">Go to the dashboard</Link>.</p>
    </>
  );
}
