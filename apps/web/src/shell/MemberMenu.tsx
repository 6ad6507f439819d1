import { useNavigate } from '../router/Router.js';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useCurrentMember, useSignOut } from '../shop/member.js';

/** The header's menu for a signed-in member: account sections and sign out. */
export default function MemberMenu() {
  const member = useCurrentMember();
  const signOut = useSignOut();
  const navigate = useNavigate();
  // The server refused the member (blocked): the session is being dropped, the header follows.
  if (member.data === null) return null;
  const name = member.data?.profile?.nickname || member.data?.contact?.firstName || 'Account';
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="header-link menu-trigger">
        <span className="avatar" aria-hidden="true">{name.charAt(0).toUpperCase()}</span>
        <span className="menu-name">{name}</span>
        <span className="visually-hidden">, account menu</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/account')}>My account</DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/account/orders')}>Orders</DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/account/addresses')}>Addresses</DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void signOut().then(() => navigate('/'))}>Sign out</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
