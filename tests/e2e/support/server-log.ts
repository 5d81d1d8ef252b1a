/**
 * The server's output read as its log: one JSON object per line (app/log/logger.server.ts).
 * A line that is not JSON (init's console output, a crash before the logger existed) is kept
 * as its text, marked `json: false`, so a spec can both read messages and prove the shape.
 */
export type ServerLogLine = { json: boolean; msg: string; level?: number; levelName?: string; reqId?: string; err?: unknown; [field: string]: unknown }

export function parseServerLog(text: string): ServerLogLine[] {
	return text
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			try {
				const record = JSON.parse(line) as Record<string, unknown>
				if (record && typeof record === 'object' && typeof record.msg === 'string') return { ...record, json: true } as ServerLogLine
			} catch {
				// not JSON: kept as text below
			}
			return { json: false, msg: line }
		})
}

/** The messages, one per line: what a person reading the log would look for. */
export function logMessages(text: string): string[] {
	return parseServerLog(text).map((line) => line.msg)
}

/** Lines that carry a stack trace: an `err` with a stack, or a message or text line with `    at …` frames. */
export function linesWithStacks(text: string): ServerLogLine[] {
	return parseServerLog(text).filter(
		(line) => (line.err && typeof line.err === 'object' && 'stack' in line.err) || /^\s+at /m.test(line.msg) || /\n\s+at /.test(line.msg),
	)
}
