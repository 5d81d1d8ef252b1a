import type { ScaleSize } from './scale-rows'

const LIMIT = 10_000_000

/** The command line of `npm run seed:scale`: every size a whole number, nothing unknown. */
export function parseScaleArgs(args: readonly string[]): { ok: true; size: ScaleSize; adminEmail: string } | { ok: false; message: string } {
	const values = new Map<string, string>()
	for (let i = 0; i < args.length; i += 2) {
		const name = args[i]!
		const value = args[i + 1]
		if (!/^--(products|orders|customers|seed|admin-email)$/.test(name)) return { ok: false, message: `unknown argument ${JSON.stringify(name)}` }
		if (value === undefined || value.startsWith('--')) return { ok: false, message: `${name} needs a value` }
		values.set(name.slice(2), value)
	}
	const whole = (name: string, fallback?: number) => {
		const raw = values.get(name)
		if (raw === undefined) return fallback ?? null
		return /^\d{1,8}$/.test(raw) && Number(raw) <= LIMIT ? Number(raw) : Number.NaN
	}
	const size = { products: whole('products'), orders: whole('orders'), customers: whole('customers'), seed: whole('seed', 1) }
	for (const [name, value] of Object.entries(size)) {
		if (value === null) return { ok: false, message: `--${name} is required` }
		if (Number.isNaN(value)) return { ok: false, message: `--${name} must be a whole number up to ${LIMIT}` }
	}
	if (size.products! < 1) return { ok: false, message: '--products must be at least 1 (Orders need something to sell)' }
	const adminEmail = (values.get('admin-email') ?? 'scale-admin@example.com').toLowerCase()
	if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) return { ok: false, message: '--admin-email must be an email address' }
	return { ok: true, size: size as ScaleSize, adminEmail }
}
