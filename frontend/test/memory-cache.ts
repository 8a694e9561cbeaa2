// An in-memory Cache API (CacheStorage and Cache, the parts the front-end uses) for unit tests.

export class MemoryCache {
  readonly entries = new Map<string, { body: ArrayBuffer; status: number; headers: Headers }>();

  private static key(request: RequestInfo | URL): string {
    return typeof request === "string" || request instanceof URL ? String(request) : request.url;
  }

  async match(request: RequestInfo | URL): Promise<Response | undefined> {
    const entry = this.entries.get(MemoryCache.key(request));
    if (!entry) return undefined;
    return new Response(entry.body.slice(0), { status: entry.status, headers: entry.headers });
  }

  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    const body = await response.arrayBuffer();
    this.entries.set(MemoryCache.key(request), { body, status: response.status, headers: response.headers });
  }

  async delete(request: RequestInfo | URL): Promise<boolean> {
    return this.entries.delete(MemoryCache.key(request));
  }

  async keys(): Promise<{ url: string }[]> {
    return [...this.entries.keys()].map((url) => ({ url }));
  }
}

/** A CacheStorage over `stores` (cache name -> cache). */
export function memoryCaches(stores: Map<string, MemoryCache>) {
  return {
    open: async (name: string) => stores.get(name) ?? stores.set(name, new MemoryCache()).get(name)!,
    keys: async () => [...stores.keys()],
    has: async (name: string) => stores.has(name),
    delete: async (name: string) => stores.delete(name),
  };
}
