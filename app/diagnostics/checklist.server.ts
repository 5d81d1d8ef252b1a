import type { Db } from '../data/db.server'
import { type CheckLine, staticChecklist } from './checks.server'

/** How long the overview reuses a checklist: each one verifies admin passwords and asks Redis and the bucket. */
export const CHECKLIST_MEMO_MS = 30_000

const memo = new WeakMap<Db, Map<string, { at: number; lines: Promise<CheckLine[]> }>>()

/**
 * The pre-exposure checklist for the Store Admin overview [R80]: the read-only part of
 * `npm run diagnose` (no live requests, no throwaway database), with this process's configuration.
 */
export function adminChecklist(db: Db, storeId: string, now = Date.now()): Promise<CheckLine[]> {
	let byStore = memo.get(db)
	if (!byStore) memo.set(db, (byStore = new Map()))
	const hit = byStore.get(storeId)
	if (hit && now - hit.at < CHECKLIST_MEMO_MS && now >= hit.at) return hit.lines
	const lines = staticChecklist({ db, storeId, env: process.env })
	lines.catch(() => byStore.delete(storeId))
	byStore.set(storeId, { at: now, lines })
	return lines
}
