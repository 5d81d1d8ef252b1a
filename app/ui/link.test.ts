import { createElement, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, Link as RouterLink, type LinkProps, StaticRouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { Link } from './link'

/** Renders `links` as the server renders a page at `url` (React Router's static router), once per Link component. */
async function render(url: string, links: LinkProps[], basename?: string) {
	const page = (component: typeof RouterLink) => () => createElement('nav', null, ...links.map((props, i) => createElement(component, { key: i, ...props })))
	const html: string[] = []
	for (const component of [RouterLink, Link]) {
		const handler = createStaticHandler(
			[
				{ path: '/products/:slug', Component: page(component) },
				{ path: '*', Component: page(component) },
			],
			{ basename },
		)
		const context = await handler.query(new Request(`http://store.test${url}`))
		if (context instanceof Response) throw new Error('unexpected redirect')
		const router = createStaticRouter(handler.dataRoutes, context)
		html.push(renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false })))
	}
	return { routerLink: html[0]!, link: html[1]! }
}

const child = (text: string): ReactNode => createElement('span', { className: 'title' }, text)

describe('Link on the server', () => {
	it('is the server’s own link where there is no document, not React Router’s', () => {
		expect(Link).not.toBe(RouterLink)
	})

	it('writes the same markup as React Router’s Link for the store’s own paths', async () => {
		const links: LinkProps[] = [
			{ to: '/' },
			{ to: '/cart', className: 'cart-link', 'data-testid': 'cart-link', children: 'Cart' } as LinkProps,
			{ to: '/products/canvas-tote', className: 'product-card', children: child('Canvas tote') },
			{ to: '/policies/refund', 'aria-current': 'page', id: 'refund', title: 'Refunds', children: 'Refunds' },
			{ to: '/account/orders/', children: 'Orders' },
		]
		for (const url of ['/', '/products/canvas-tote', '/account/orders?page=2']) {
			const { routerLink, link } = await render(url, links)
			expect(link).toBe(routerLink)
			expect(link).toContain('href="/products/canvas-tote"')
		}
	})

	it('leaves every other link to React Router, with the same markup', async () => {
		const links: LinkProps[] = [
			{ to: '?page=2', children: 'Next' },
			{ to: '../other', children: 'Up' },
			{ to: 'relative', children: 'Relative' },
			{ to: '/search?q=linen%20bag', children: 'Search' },
			{ to: '/products/a#reviews', children: 'Reviews' },
			{ to: '/a/./b/../c', children: 'Dots' },
			{ to: '//evil.example/x', children: 'Protocol-relative' },
			{ to: 'https://example.com/x', children: 'External' },
			{ to: { pathname: '/cart', search: '?x=1' }, children: 'Object' },
			{ to: '/cart', reloadDocument: true, children: 'Reload' },
			{ to: '/cart', prefetch: 'render', children: 'Prefetched' },
			{ to: '/cart', target: '_blank', children: 'New tab' },
			{ to: '/cart', discover: 'none', children: 'Not discovered' },
			{ to: '/caf\u00e9', children: 'Not ASCII' },
		]
		const { routerLink, link } = await render('/products/canvas-tote', links)
		expect(link).toBe(routerLink)
		expect(link).toContain('href="/products/canvas-tote?page=2"')
		expect(link).toContain('<a href="/cart">Not discovered</a>')
	})

	it('leaves links to React Router under a basename', async () => {
		const { routerLink, link } = await render('/shop/products/canvas-tote', [{ to: '/cart', children: 'Cart' }], '/shop')
		expect(link).toBe(routerLink)
		expect(link).toContain('href="/shop/cart"')
	})
})
