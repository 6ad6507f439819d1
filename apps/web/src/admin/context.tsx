import { createContext, useContext } from 'react';
import type { BackOfficeMe } from '@bodega/sdk';
import type { AdminClient } from './client.js';

export interface Admin {
  api: AdminClient;
  me: BackOfficeMe;
  currency: string;
}

export const AdminContext = createContext<Admin | null>(null);

export function useAdmin(): Admin {
  const admin = useContext(AdminContext);
  if (!admin) throw new Error('useAdmin outside the back office');
  return admin;
}

/** What the signed-in person may do; the server refuses the rest anyway. */
export function usePermissions() {
  const { me } = useAdmin();
  const owner = me.role === 'OWNER' || me.role === 'APP';
  // The server's role matrix (README, "Roles and access"): API keys, webhooks, roles and the store settings are the owner's.
  return { owner, manageApiKeys: owner, changeRoles: owner, manageWebhooks: owner, changeStoreSettings: owner };
}
