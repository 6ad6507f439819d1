// The wire's address schemas (carts, checkouts, orders, the shop's pickup points and origin):
// one definition, so every call validates an address the same way.
import { Type } from 'typebox';

const Str = (maxLength: number) => Type.String({ maxLength });
const NullableStr = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

export const Address = Type.Object({
  country: Type.Optional(NullableStr(3)),
  subdivision: Type.Optional(NullableStr(10)),
  city: Type.Optional(NullableStr(100)),
  postalCode: Type.Optional(NullableStr(20)),
  streetAddress: Type.Optional(Type.Object({ number: Type.Optional(Str(20)), name: Type.Optional(Str(200)), apt: Type.Optional(Str(20)) })),
  addressLine: Type.Optional(NullableStr(300)),
  addressLine2: Type.Optional(NullableStr(300)),
  countryFullname: Type.Optional(NullableStr(100)),
  subdivisionFullname: Type.Optional(NullableStr(100)),
  formattedAddress: Type.Optional(NullableStr(600)),
  geocode: Type.Optional(Type.Object({ latitude: Type.Optional(Type.Union([Type.Number(), Type.Null()])), longitude: Type.Optional(Type.Union([Type.Number(), Type.Null()])) })),
});

export const ContactDetails = Type.Object({
  firstName: Type.Optional(NullableStr(100)),
  lastName: Type.Optional(NullableStr(100)),
  phone: Type.Optional(NullableStr(50)),
  company: Type.Optional(NullableStr(200)),
  vatId: Type.Optional(Type.Object({ id: Type.Optional(Str(50)), type: Type.Optional(Str(20)) })),
});

export const AddressWithContact = Type.Object({
  address: Type.Optional(Address),
  contactDetails: Type.Optional(ContactDetails),
});
