import { Form, isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/root'
import { getViewer } from './auth/guards.server'
import { databaseOutageMiddleware } from './health/outage.server'
import { viewerMiddleware } from './auth/viewer.server'
import { MAX_SEARCH_LENGTH } from './rules/search-terms'
import { repositoriesFor } from './repositories.server'
import { formRefusalMiddleware } from './security/rate-limit/refusal.server'
import { isAdmin } from './data/viewer'
import { POLICY_TITLES, isPolicyKind } from './store/identity'
import stylesheet from './ui/app.css?url'
import { FlashNotice } from './ui/flash'
import { flashMiddleware, readFlash } from './security/flash.server'
import { useNonce } from './ui/nonce'

// The outage middleware first: it wraps every other, so a session lookup that fails on the database answers 503 too [R124].
export const middleware: Route.MiddlewareFunction[] = [databaseOutageMiddleware, formRefusalMiddleware, viewerMiddleware, flashMiddleware]

export const links: Route.LinksFunction = () => [
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
	{ rel: 'stylesheet', href: stylesheet },
]

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	const repositories = repositoriesFor(viewer)
	const [store, cartCount] = await Promise.all([repositories.store.profile(), repositories.cart.itemCount()])
	return {
		storeName: store.name,
		logo: store.logo,
		accentColor: store.accentColor,
		policies: store.policyKinds.filter(isPolicyKind).map((kind) => ({ kind, title: POLICY_TITLES[kind] })),
		money: { currency: store.currency, locale: store.locale },
		cartCount,
		flash: readFlash(args.context),
		viewer: viewer.kind === 'user' ? { signedIn: true as const, name: viewer.name, isAdmin: isAdmin(viewer) } : { signedIn: false as const },
	}
}

export function Layout({ children }: { children: React.ReactNode }) {
	const nonce = useNonce()
	const root = useRouteLoaderData<typeof loader>('root')
	return (
		<html lang="en">
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<Meta />
				<Links />
				{/* [R120] The accent colour: a stylesheet of the store's own origin, after the main one so it wins. */}
				{root?.accentColor ? <link rel="stylesheet" href={`/theme.css?v=${root.accentColor.slice(1)}`} /> : null}
			</head>
			<body>
				<header className="site-header">
					<Link to="/" className="brand">
						{root?.logo ? (
							<img
								className="brand-logo"
								src={`/media/${root.logo.key}`}
								alt={root.storeName}
								width={root.logo.width ?? undefined}
								height={root.logo.height ?? undefined}
							/>
						) : (
							(root?.storeName ?? 'Back to the store')
						)}
					</Link>
					<Form method="get" action="/search" role="search" className="site-search">
						<label htmlFor="site-search" className="visually-hidden">
							Search products
						</label>
						<input id="site-search" type="search" name="q" placeholder="Search products" maxLength={MAX_SEARCH_LENGTH} />
						<button type="submit">Search</button>
					</Form>
					{/* Without root data (an error thrown by route middleware before any
					    loader ran) the viewer is unknown: show no account links rather than wrong ones. */}
					{root ? <AccountNav viewer={root.viewer} cartCount={root.cartCount} /> : null}
				</header>
				<main>
					{root?.flash ? <FlashNotice flash={root.flash} /> : null}
					{children}
				</main>
				<footer className="site-footer">
					<Link to="/newsletter">Newsletter</Link>
					{root?.policies.map((policy) => (
						<Link key={policy.kind} to={`/policies/${policy.kind}`}>
							{policy.title}
						</Link>
					))}
					<span>{root?.storeName}</span>
				</footer>
				<ScrollRestoration nonce={nonce} />
				<Scripts nonce={nonce} />
			</body>
		</html>
	)
}

function AccountNav({ viewer, cartCount }: { viewer: Awaited<ReturnType<typeof loader>>['viewer']; cartCount: number }) {
	return (
		<nav aria-label="Account">
			<Link to="/cart" className="cart-link" data-testid="cart-link">
				Cart
				{cartCount > 0 ? (
					<span className="cart-count" data-testid="cart-count">
						{' '}
						({cartCount})
					</span>
				) : null}
			</Link>
			{viewer.signedIn ? (
				<>
					{viewer.isAdmin ? <Link to="/admin">Store Admin</Link> : null}
					<Link to="/account/orders">Orders</Link>
					<Link to="/account">{viewer.name}</Link>
					<Form method="post" action="/sign-out">
						<button type="submit" className="link-button">
							Sign out
						</button>
					</Form>
				</>
			) : (
				<>
					<Link to="/sign-in">Sign in</Link>
					<Link to="/sign-up">Create account</Link>
				</>
			)}
		</nav>
	)
}

export default function App() {
	return <Outlet />
}

/** The browser tab's title for an error page (403 and 404 pages had none). */
function errorTitle(status: number) {
	if (status === 403) return 'Forbidden'
	if (status === 404) return 'Not found'
	if (status === 413) return 'Too large'
	if (status === 429) return 'Too many requests'
	return 'Error'
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	const storeName = useRouteLoaderData<typeof loader>('root')?.storeName
	const titled = (title: string) => <title>{storeName ? `${title} · ${storeName}` : title}</title>
	if (isRouteErrorResponse(error)) {
		const message = typeof error.data === 'object' && error.data && 'message' in error.data ? String(error.data.message) : error.statusText
		return (
			<section className="error-page">
				{titled(errorTitle(error.status))}
				<h1>{errorTitle(error.status)}</h1>
				<p>{message || 'Something went wrong.'}</p>
				<p className="status">HTTP {error.status}</p>
				<Link to="/">Back to the store</Link>
			</section>
		)
	}
	// Never show a stack or server message to the browser: it could carry configuration.
	return (
		<section className="error-page">
			{titled('Something went wrong')}
			<h1>Something went wrong</h1>
			<p>The error has been logged. Please try again.</p>
			<Link to="/">Back to the store</Link>
		</section>
	)
}
