import type { EntryContext } from 'react-router'
import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import handleRequest, { pageSink } from './entry.server'
import { nonceContext } from './security/http.server'

function loadContext() {
	const context = new RouterContextProvider()
	context.set(nonceContext, 'test-nonce')
	return context
}

describe('a page render', () => {
	it('fails its request, and nothing else, when the page cannot render at all', async () => {
		// A context React Router would never pass: the router itself throws while rendering the
		// shell. The request is refused (React Router then renders its error page); the process
		// must not meet an unhandled stream error afterwards (vitest fails the run if it does).
		const failed = handleRequest(new Request('http://store.test/'), 200, new Headers(), {} as EntryContext, loadContext())
		await expect(failed).rejects.toThrow()
		await new Promise((resolve) => setTimeout(resolve, 50))
	})
})

describe('the page sink', () => {
	const sinkFor = () => {
		let body: Buffer | null = null
		let failure: unknown = null
		const sink = pageSink({ done: (buffer) => (body = buffer), failed: (error) => (failure = error) })
		return { sink, body: () => body, failure: () => failure }
	}

	it('hands over the whole page as one buffer, bytes and strings in the order written', () => {
		const { sink, body, failure } = sinkFor()
		sink.write(new TextEncoder().encode('<p>one'))
		sink.write('<script>two</script>' as never)
		sink.write(new TextEncoder().encode('three</p>'))
		expect(body()).toBeNull()
		sink.end()
		expect(body()?.toString('utf8')).toBe('<p>one<script>two</script>three</p>')
		expect(failure()).toBeNull()
	})

	it('fails once when React gives up on the page, and ignores what comes after', () => {
		const { sink, body, failure } = sinkFor()
		sink.write(new TextEncoder().encode('<p>half'))
		sink.destroy(new Error('render failed'))
		sink.write(new TextEncoder().encode('more'))
		sink.end()
		expect((failure() as Error).message).toBe('render failed')
		expect(body()).toBeNull()
	})

	it('receives a real render whole, a long inline script included', async () => {
		const long = 'x'.repeat(5_000)
		const html = await new Promise<string>((resolve, reject) => {
			const { pipe } = renderToPipeableStream(
				createElement(
					'main',
					null,
					createElement('h1', null, 'Field notebook'),
					createElement('script', { dangerouslySetInnerHTML: { __html: `window.data="${long}"` } }),
				),
				{
					onAllReady() {
						pipe(pageSink({ done: (body) => resolve(body.toString('utf8')), failed: reject }))
					},
					onShellError: reject,
				},
			)
		})
		expect(html).toBe(`<main><h1>Field notebook</h1><script>window.data="${long}"</script></main>`)
	})
})
