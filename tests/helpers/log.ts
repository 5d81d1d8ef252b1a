import { observeLogs } from '../../app/log/logger.server'

/** One line of the store's log, as written (redacted). */
export type LogRecord = { level: number; levelName: string; time: string; msg: string; reqId?: string; [field: string]: unknown }

/**
 * Records every line the store's logger writes from now on, exactly as written, until `stop()`.
 * Under vitest the logger writes nothing anywhere else (app/log/logger.server.ts).
 */
export function recordLogs() {
	const records: LogRecord[] = []
	const stop = observeLogs((line) => records.push(JSON.parse(line) as LogRecord))
	return {
		records,
		/** The messages of the lines at `levelName` (all lines without one). */
		messages: (levelName?: string) => records.filter((record) => !levelName || record.levelName === levelName).map((record) => record.msg),
		stop,
	}
}
