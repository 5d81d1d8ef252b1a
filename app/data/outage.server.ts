/**
 * [R124] Whether an error means the database could not be reached (or was lost mid-request),
 * as opposed to a query it refused. Such an error is the store's dependency being briefly
 * away: the request answers 503 with Retry-After, never 500 (app/health/outage.server.ts).
 */

/** Socket and DNS errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
/**
 * Prisma's codes for a server it cannot reach, that timed out, closed the connection, or whose
 * pool had no connection to give: P1001 can't reach, P1002 timed out, P1008 operation timed out,
 * P1017 server closed the connection, P2024 timed out fetching a connection from the pool, P2028
 * a transaction that could not start in time (SQLite locked, a pool with no connection free).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028'])
/** PostgreSQL's SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutting down, cannot connect now). */
const POSTGRES_STATE = /^(08[0-9A-Z]{3}|57P0[123])$/
/** SQLite: the file cannot be opened, read or written, or another process holds it locked past the busy timeout. */
const SQLITE_CODES = /^SQLITE_(CANTOPEN|IOERR|BUSY|LOCKED|NOTADB|READONLY)/
/** Driver adapter error kinds (Prisma's driver adapters) that are the database being away. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'DatabaseDoesNotExist', 'SocketError'])
/** node-postgres's errors of a lost connection carry no code, only these messages. */
const LOST_CONNECTION = /Connection terminated|connection timeout|Client has encountered a connection error|server closed the connection/i

export function isDatabaseUnreachable(error: unknown): boolean {
	return unreachable(error, 0)
}

function unreachable(error: unknown, depth: number): boolean {
	if (depth > 5 || error === null || typeof error !== 'object') return false
	const { code, kind, message, cause, originalCode } = error as Record<string, unknown>
	for (const value of [code, originalCode]) {
		if (typeof value !== 'string') continue
		if (NETWORK_CODES.has(value) || PRISMA_CODES.has(value) || POSTGRES_STATE.test(value) || SQLITE_CODES.test(value)) return true
	}
	if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true
	if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true
	// Prisma's DriverAdapterError keeps the driver's details under `cause`; AggregateError under `errors`.
	const { errors } = error as { errors?: unknown }
	if (Array.isArray(errors) && errors.some((inner) => unreachable(inner, depth + 1))) return true
	return unreachable(cause, depth + 1)
}
