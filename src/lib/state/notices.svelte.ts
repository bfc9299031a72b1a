// Short messages for the person ("Collection created in block 3"), shown in one polite live
// region by the layout. Errors stay until dismissed; the rest fade after a while.
export interface Notice {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
  href?: string;
  linkText?: string;
}

const LIFETIME_MS = 8000;

class Notices {
  list = $state<Notice[]>([]);
  #next = 1;

  add(kind: Notice['kind'], text: string, link?: { href: string; text: string }): number {
    const id = this.#next++;
    this.list = [...this.list.slice(-4), { id, kind, text, href: link?.href, linkText: link?.text }];
    if (kind !== 'error') setTimeout(() => this.dismiss(id), LIFETIME_MS);
    return id;
  }

  dismiss(id: number): void {
    this.list = this.list.filter((n) => n.id !== id);
  }
}

export const notices = new Notices();
