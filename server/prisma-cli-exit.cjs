/**
 * Preloaded into Prisma's migration CLI (`node --require` this file): lets the process end once
 * its work is done instead of ten seconds later.
 *
 * Prisma 6.19's schema engine (WebAssembly) races its PostgreSQL advisory lock against a 10 s
 * timer and never clears the timer once the lock is taken, so every `migrate deploy` on
 * PostgreSQL sat idle for the rest of those 10 s after its last statement (docs/decisions/059).
 * Timers of 10 s or more are unref'd here: such a timer still fires while anything else keeps the
 * process alive (a query waiting for the lock keeps its socket open, so the lock's timeout still
 * ends the wait), but it no longer holds an idle process open by itself.
 */
'use strict'
const setTimeoutOfNode = globalThis.setTimeout
globalThis.setTimeout = function setTimeoutThatLetsTheCliExit(callback, delay, ...args) {
	const timer = setTimeoutOfNode.call(this, callback, delay, ...args)
	if (Number(delay) >= 10_000 && typeof timer?.unref === 'function') timer.unref()
	return timer
}
