import type { EntryContext } from 'react-router'
import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import handleRequest from './entry.server'
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
