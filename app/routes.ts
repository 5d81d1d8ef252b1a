import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes'

export default [
	index('routes/store/home.tsx'),
	route('products/:slug', 'routes/store/product.tsx'),
	route('cart', 'routes/store/cart.tsx'),
	route('checkout', 'routes/store/checkout.tsx'),
	route('orders/:token', 'routes/store/order.tsx'),
	route('newsletter', 'routes/store/newsletter.tsx'),
	route('newsletter/unsubscribe', 'routes/store/newsletter-unsubscribe.tsx'),
	route('sign-up', 'routes/auth/sign-up.tsx'),
	route('sign-in', 'routes/auth/sign-in.tsx'),
	route('sign-in/sso', 'routes/auth/sign-in-sso.tsx'),
	route('sign-in/two-factor', 'routes/auth/sign-in-two-factor.tsx'),
	route('sign-out', 'routes/auth/sign-out.tsx'),
	route('account', 'routes/account/account.tsx'),
	route('account/password', 'routes/account/password.tsx'),
	route('account/security', 'routes/account/security.tsx'),
	route('account/orders', 'routes/account/orders.tsx'),
	route('account/orders/:number', 'routes/account/order.tsx'),

	// Everything under /admin sits below the guard in this layout (its middleware).
	...prefix('admin', [
		layout('routes/admin/layout.tsx', [
			index('routes/admin/dashboard.tsx'),
			route('store', 'routes/admin/store.tsx'),
			route('activity', 'routes/admin/activity.tsx'),
			route('products', 'routes/admin/products.tsx'),
			route('products/new', 'routes/admin/product-new.tsx'),
			route('products/:id', 'routes/admin/product-edit.tsx'),
			route('orders', 'routes/admin/orders.tsx'),
			route('orders/:number', 'routes/admin/order.tsx'),
			route('uploads', 'routes/admin/uploads.tsx'),
			route('events', 'routes/admin/events.tsx'),
			route('connections', 'routes/admin/connections.tsx'),
		]),
	]),

	route('api/auth/*', 'routes/api/auth.ts'),
	route('api/upload', 'routes/api/upload.ts'),
	route('api/events/:connection', 'routes/api/events.ts'),
	route('media/*', 'routes/store/media.ts'),
	route('healthz', 'routes/api/healthz.ts'),
	route('readyz', 'routes/api/readyz.ts'),
	route('*', 'routes/store/not-found.tsx'),
] satisfies RouteConfig
