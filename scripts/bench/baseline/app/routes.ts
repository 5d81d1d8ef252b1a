import { type RouteConfig, index, route } from '@react-router/dev/routes'

export default [
	index('routes/home.tsx'),
	route('products/:slug', 'routes/product.tsx'),
	route('search', 'routes/search.tsx'),
	route('collections/:slug', 'routes/collection.tsx'),
] satisfies RouteConfig
