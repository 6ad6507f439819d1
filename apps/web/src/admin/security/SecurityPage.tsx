import AccountSecurityPage from '../../account/SecurityPage.js';

/**
 * The back-office profile's Security page: the staff member's own second factors, recovery codes,
 * remembered devices and signed-in sessions, with the account page's own parts (one sign-in serves both).
 */
export default function SecurityPage() {
  return (
    <div className="admin-security">
      <AccountSecurityPage />
    </div>
  );
}
