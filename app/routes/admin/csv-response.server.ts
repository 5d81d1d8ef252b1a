/**
 * A CSV download written as it is read: each chunk the generator yields is sent before the next
 * is asked for (the stream pulls), so the response holds one batch at a time, and a client that
 * goes away stops the reads.
 */
export function csvResponse(chunks: AsyncGenerator<string, void>, filename: string) {
	const encoder = new TextEncoder()
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			const next = await chunks.next()
			if (next.done) controller.close()
			else controller.enqueue(encoder.encode(next.value))
		},
		async cancel() {
			await chunks.return(undefined)
		},
	})
	return new Response(body, {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="${filename}"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
