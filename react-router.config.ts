import type { Config } from '@react-router/dev/config'

export default {
	ssr: true,
	future: {
		// Route middleware runs before any loader or action of its subtree:
		// the /admin guard cannot be skipped by requesting a child route's data directly.
		v8_middleware: true,
	},
} satisfies Config
