/** Points each replica has on the ring: enough that keys spread evenly over a few replicas. */
export const VIRTUAL_NODES = 160;
/** How far above the average load a replica may be and still take its keys (consistent hashing with bounded loads). */
export const LOAD_FACTOR = 1.25;

const hash = (text: string) => Bun.hash.xxHash32(text);

/** The most a replica may hold and still take a new request: ceil(LOAD_FACTOR × (total in flight + 1) / replicas). */
export const loadBound = (totalInFlight: number, replicas: number) => Math.ceil((LOAD_FACTOR * (totalInFlight + 1)) / replicas);

/**
 * Consistent hashing with bounded loads: each replica id has VIRTUAL_NODES points on a 32-bit
 * ring; a key goes to the first replica clockwise from its own point whose in flight is under
 * loadBound. Adding or removing a replica moves only the keys of the points it gains or loses
 * (about 1/n of them); a replica that is busy above the bound passes its keys on to the next.
 */
export class PrefixRing {
  /** The last ring built, by its sorted replica ids: the same replicas reuse it. */
  private cached: { ids: string; points: Uint32Array; owners: string[] } | undefined;

  /** The replica `key` goes to and whether it is not the key's own (overflow, its own was too busy); undefined when `ids` is empty. */
  pick(key: string, ids: string[], load: (id: string) => number): { id: string; overflow: boolean } | undefined {
    if (ids.length === 0) return undefined;
    const ring = this.ring(ids);
    const bound = loadBound(ids.reduce((sum, id) => sum + load(id), 0), ids.length);
    const point = hash(key);
    // First point at or after the key's (binary search), wrapping around.
    let low = 0;
    let high = ring.points.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ring.points[middle] < point) low = middle + 1;
      else high = middle;
    }
    const seen = new Set<string>();
    for (let step = 0; step < ring.points.length && seen.size < ids.length; step++) {
      const id = ring.owners[(low + step) % ring.points.length];
      if (seen.has(id)) continue;
      seen.add(id);
      if (load(id) < bound) return { id, overflow: seen.size > 1 };
    }
    // Unreachable (the loads cannot all be at the bound), but never leave a request without a replica.
    return { id: ring.owners[low % ring.points.length], overflow: true };
  }

  private ring(ids: string[]) {
    const key = [...ids].sort().join("\n");
    if (this.cached?.ids === key) return this.cached;
    const entries: Array<[number, string]> = [];
    for (const id of ids) for (let node = 0; node < VIRTUAL_NODES; node++) entries.push([hash(`${id}#${node}`), id]);
    // Ties (rare) are ordered by id, so every gateway builds the same ring.
    entries.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
    this.cached = { ids: key, points: Uint32Array.from(entries.map(([point]) => point)), owners: entries.map(([, id]) => id) };
    return this.cached;
  }
}
