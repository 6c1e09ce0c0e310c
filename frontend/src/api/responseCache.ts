import { CACHE_TTL_MS } from '../constants';

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/** Time-limited response cache; only successful responses are ever put in. */
export class ResponseCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number = CACHE_TTL_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      return undefined;
    }
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  /** Drops every entry of one url (all bodies), e.g. after a successful write to it. */
  deleteUrl(url: string): void {
    for (const key of this.entries.keys()) {
      if (key === url || key.startsWith(`${url}\n`)) {
        this.entries.delete(key);
      }
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
