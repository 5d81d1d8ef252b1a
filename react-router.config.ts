import type { Config } from '@react-router/dev/config'

export default {
	ssr: true,
	future: {
		// Route middleware runs before any loader or action of its subtree:
		// the /admin guard cannot be skipped by requesting a child route's data directly.
		v8_middleware: true,
		// Loaders and actions get the incoming request as it is (issue 11): React Router no longer
		// copies it twice per loader to strip `.data`/`_routes`/`index`. Nothing here depends on that
		// normalisation: `signInUrlFor` strips `.data` and `_routes` itself, and every other reader
		// takes named search parameters.
		v8_passThroughRequests: true,
	},
} satisfies Config
