/**
 * A verified body read as an event: a JSON object, or null when it is not one (answered 400
 * and counted as a refusal, never a 500). The bytes are decoded only to be read; what is
 * stored and replayed is the bytes themselves [R61].
 */
export function parseEventBody(raw: Uint8Array): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'))
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
	} catch {
		return null
	}
}
