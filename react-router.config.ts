import type { Config } from '@react-router/dev/config'

export default {
	ssr: true,
	// The whole route manifest is one static, cacheable asset. The default, lazy
	// discovery inlined a partial manifest into every page and matched each ancestor path against
	// every route per request to build it (two extra full matches for /products/:slug), and made
	// the browser ask /__manifest on navigation. Route paths are no secret: /admin is documented.
	routeDiscovery: { mode: 'initial' },
	future: {
		// Route middleware runs before any loader or action of its subtree:
		// the /admin guard cannot be skipped by requesting a child route's data directly.
		v8_middleware: true,
		// Loaders and actions get the incoming request as it is: React Router no longer
		// copies it twice per loader to strip `.data`/`_routes`/`index`. Nothing here depends on that
		// normalisation: `signInUrlFor` strips `.data` and `_routes` itself, and every other reader
		// takes named search parameters.
		v8_passThroughRequests: true,
		// Said explicitly, so the build does not warn about them at every set-up: today's behaviour
		// is kept until React Router 8 makes each the default (none changes what a shopper sees).
		v8_splitRouteModules: false,
		v8_viteEnvironmentApi: false,
		v8_trailingSlashAwareDataRequests: false,
	},
} satisfies Config
