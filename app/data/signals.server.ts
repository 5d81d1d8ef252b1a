/**
 * Changes one concern announces and another concern's cache hears, so that neither imports
 * the other: checkout and an admin cancel change stock, which the catalog's shopper cache
 * must forget. In-process; the caches themselves carry the news to other processes
 * (shared-cache.server.ts).
 */
export type Signal = 'catalog-changed'

const listeners = new Map<Signal, Set<() => void>>()

export function onSignal(signal: Signal, listener: () => void) {
	const set = listeners.get(signal) ?? new Set()
	set.add(listener)
	listeners.set(signal, set)
}

/** Called once the write that changed things has committed. */
export function announce(signal: Signal) {
	for (const listener of listeners.get(signal) ?? []) listener()
}
