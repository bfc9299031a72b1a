// Named contacts (a name and an address), kept in localStorage: offered by every address field
// and shown by name wherever their address appears. Bounded and validated on load and on change.
import { accountAddress, sameAddress } from '../client/address';

export interface Contact {
  name: string;
  address: string;
}

export const CONTACTS_KEY = 'opalite:contacts:v1';
export const MAX_CONTACTS = 200;
export const MAX_CONTACT_NAME = 64;

/** A contact name: trimmed, 1 to 64 characters, no control characters; else an error in words. */
export function contactName(value: string): string {
  const name = value.trim();
  if (!name) throw new Error('Contact name: give the contact a name');
  if ([...name].length > MAX_CONTACT_NAME) throw new Error(`Contact name: at most ${MAX_CONTACT_NAME} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new Error('Contact name: no control characters');
  return name;
}

/** The valid contacts of stored text, at most MAX_CONTACTS, without repeated addresses. */
export function parseContacts(text: string | null): Contact[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: Contact[] = [];
  for (const item of raw) {
    if (out.length >= MAX_CONTACTS) break;
    if (!item || typeof item.name !== 'string' || typeof item.address !== 'string') continue;
    try {
      const contact = { name: contactName(item.name), address: accountAddress(item.address) };
      if (!out.some((c) => sameAddress(c.address, contact.address))) out.push(contact);
    } catch {
      // A damaged entry is dropped; the rest stay.
    }
  }
  return out;
}

class Contacts {
  list = $state<Contact[]>(typeof localStorage === 'undefined' ? [] : parseContacts(localStorage.getItem(CONTACTS_KEY)));

  find(address: string): Contact | undefined {
    return this.list.find((c) => sameAddress(c.address, address));
  }

  add(name: string, address: string): Contact {
    const contact = { name: contactName(name), address: accountAddress(address, 'Contact address') };
    if (this.find(contact.address)) throw new Error(`Contact address: already a contact (${this.find(contact.address)!.name})`);
    if (this.list.length >= MAX_CONTACTS) throw new Error(`At most ${MAX_CONTACTS} contacts: remove one first`);
    this.#save([...this.list, contact]);
    return contact;
  }

  rename(address: string, name: string): void {
    const checked = contactName(name);
    this.#save(this.list.map((c) => (sameAddress(c.address, address) ? { ...c, name: checked } : c)));
  }

  remove(address: string): void {
    this.#save(this.list.filter((c) => !sameAddress(c.address, address)));
  }

  #save(list: Contact[]): void {
    this.list = list;
    try {
      localStorage.setItem(CONTACTS_KEY, JSON.stringify(list));
    } catch {
      // Storage full or blocked: the contacts still work for this visit.
    }
  }
}

export const contacts = new Contacts();
