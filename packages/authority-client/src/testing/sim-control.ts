/** The simulator's control API, for one authority's log of what it received. */
export interface SimControl<E> {
  /** What the simulator received for `target`, filtered by company and kind. */
  received(query: { company?: string; kind?: string }): Promise<E[]>;
  /** Any other control request (faults, clock, ...): its JSON answer. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
}

/** The control API at `controlUrl`; `received` lists `target`'s log ("tax", "registry"). */
export function simControl<E>(controlUrl: string, target: string): SimControl<E> {
  return {
    async received(query) {
      const params = new URLSearchParams({ target, ...query });
      const response = await fetch(`${controlUrl}/received?${params.toString()}`);
      return ((await response.json()) as { items: E[] }).items;
    },
    async control(method, path, body) {
      const response = await fetch(`${controlUrl}${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      return response.json();
    },
  };
}
