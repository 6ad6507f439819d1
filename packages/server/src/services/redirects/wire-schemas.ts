// The redirect calls' JSON answers (@wix/redirects, the hosted checkout's claim, logout): they
// write the wire, document it and are the SDK's RedirectSession.
import { Type } from 'typebox';
import { oneOf } from '../../platform/wire-schema.js';

export const RedirectSession = Type.Object({
  id: Type.String(),
  fullUrl: Type.String({ description: 'The page to send the browser to.' }),
  urlDetails: Type.Object({ endpoint: Type.String(), searchParams: Type.Record(Type.String(), Type.String()) }),
  sessionToken: Type.Optional(Type.String()),
}, { title: 'RedirectSession' });

export const RedirectSessionResponse = Type.Object({ redirectSession: RedirectSession }, { title: 'RedirectSessionResponse' });

export const HandoverResponse = Type.Object({
  handover: Type.Object({
    checkoutId: Type.String(),
    shopper: oneOf(['VISITOR', 'MEMBER', 'NONE'] as const, { description: "Who the page now acts as: the app's visitor, its member, or nobody." }),
    tokens: Type.Optional(Type.Object({
      access_token: Type.String(),
      refresh_token: Type.String(),
      expires_in: Type.Integer(),
      token_type: oneOf(['Bearer'] as const),
    }, { description: "The token endpoint's answer for that shopper; absent for NONE." })),
    callbacks: Type.Object({ thankYouPageUrl: Type.Optional(Type.String()), postFlowUrl: Type.Optional(Type.String()) }),
  }),
}, { title: 'HandoverResponse' });

export const LogoutResponse = Type.Object({ postLogoutRedirectUri: Type.String() }, { title: 'LogoutResponse' });
