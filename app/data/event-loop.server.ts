/**
 * [R123] How long this process's own event loop has been unable to run anything, so a
 * deadline set on a dependency counts only the time the process could have read its answer.
 *
 * A timer and an answer that arrive while the loop is busy are both handled late, and the
 * timer first (Node runs timers before it polls sockets): a plain `setTimeout` deadline on a
 * busy process declares a healthy Redis or PostgreSQL "not answering" when the answer is
 * sitting unread in the socket. One ticker per process measures how late it runs; that
 * lateness is time the loop was busy, and a deadline does not count it.
 */
const TICK_MS = 20
/** How far back "how late the loop runs now" looks (two buckets of this length). */
const RECENT_MS = 250

type Monitor = { busyMs(): number; lateMs(): number }
const globalForLoop = globalThis as unknown as { storeLoopMonitor?: Monitor }

/**
 * One per process: the same measure as Node's perf_hooks.monitorEventLoopDelay (how late a
 * timer runs), kept as a running sum (for deadlines) and as the worst of the last 250–500 ms
 * (for the load shedder), and read while a stall is still going on, which the histogram cannot.
 */
function monitor(): Monitor {
	if (globalForLoop.storeLoopMonitor) return globalForLoop.storeLoopMonitor
	let busy = 0
	let due = performance.now() + TICK_MS
	let bucketStart = performance.now()
	let worst = 0
	let previousWorst = 0
	const ticker = setInterval(() => {
		const now = performance.now()
		const late = Math.max(0, now - due)
		busy += late
		due = now + TICK_MS
		if (now - bucketStart >= RECENT_MS) {
			previousWorst = now - bucketStart >= 2 * RECENT_MS ? late : worst
			worst = 0
			bucketStart = now
		}
		worst = Math.max(worst, late)
	}, TICK_MS)
	ticker.unref()
	const ongoing = () => Math.max(0, performance.now() - due)
	globalForLoop.storeLoopMonitor = {
		// Lateness still running counts too: the deadline's timer may fire before the ticker's.
		busyMs: () => busy + ongoing(),
		lateMs: () => Math.max(worst, previousWorst, ongoing()),
	}
	return globalForLoop.storeLoopMonitor
}

/** Milliseconds the loop has been busy (unable to run a callback) since the monitor started. */
export const loopBusyMs = () => monitor().busyMs()

/** How late the event loop runs now: the worst lateness of its timer in the last 250–500 ms (or the stall going on). */
export const loopLateMs = () => monitor().lateMs()

/** The deadline of `withinFreeTime` passed without an answer. */
export class NoAnswer extends Error {
	override name = 'NoAnswer'
}

/**
 * `promise`, or a `NoAnswer` rejection once `ms` of time the loop was free has passed without
 * it settling. When the free time is up, the verdict waits one turn of the loop (setImmediate,
 * which runs after the socket poll) so an answer that has already arrived is read before "no
 * answer" is concluded.
 */
export function withinFreeTime<T>(promise: Promise<T>, ms: number): Promise<T> {
	const { busyMs } = monitor()
	const started = performance.now()
	const busyAtStart = busyMs()
	return new Promise<T>((resolve, reject) => {
		let settled = false
		let timer: NodeJS.Timeout | undefined
		const settle = (finish: () => void) => {
			if (settled) return
			settled = true
			clearTimeout(timer)
			finish()
		}
		const wait = (remaining: number) => {
			timer = setTimeout(() => {
				const free = performance.now() - started - (busyMs() - busyAtStart)
				if (free < ms) wait(ms - free)
				else setImmediate(() => settle(() => reject(new NoAnswer(`no answer within ${ms} ms`))))
			}, remaining)
		}
		promise.then(
			(value) => settle(() => resolve(value)),
			(error: unknown) => settle(() => reject(error)),
		)
		wait(ms)
	})
}

/** Whether `promise` fulfils within `ms` of free loop time (a rejection or no answer is false). */
export const answersWithin = (promise: Promise<unknown>, ms: number) =>
	withinFreeTime(promise, ms).then(
		() => true,
		() => false,
	)
