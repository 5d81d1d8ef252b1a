import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CAPABILITIES, isEnabled } from '../app/config/capabilities'
import { RELEASES } from '../app/config/releases'

/**
 * What the README offers is what the maturity registry (app/config/capabilities.ts) and the
 * release guidance publish, and the other way round [R70]. Each bullet of the README's "What you
 * get today" starts with a bold label; this table names the registry capabilities each label
 * offers. A bullet the table does not know, a label the README lost, a capability nobody offers
 * and an id the registry does not have all fail here: change the README, the registry and this
 * table together.
 */
const README_OFFERS: Record<string, readonly string[]> = {
	Storefront: ['catalog', 'catalog-search', 'carts', 'guest-tracking'],
	Checkout: ['checkout', 'discount-codes'],
	Orders: ['order-mail', 'newsletter', 'newsletter-campaigns'],
	'Product reviews': ['product-reviews'],
	Modules: ['modules', 'published-views'],
	Accounts: ['email-sign-in', 'two-factor', 'account-sessions', 'password-recovery'],
	'Store Admin': [
		'store-admin',
		'store-admin-commerce',
		'store-admin-customers',
		'store-admin-refunds',
		'store-admin-exports',
		'activity-log',
		'store-profile',
	],
	'Managed sign-in': ['managed-sign-in'],
	'Provider events': ['provider-events'],
	Uploads: ['uploads'],
	Requests: ['rate-limits'],
	Operations: ['diagnostics'],
}

/** Capabilities in the registry that the README must not offer as something you get, and why. */
const NOT_OFFERED_TODAY: Record<string, string> = {
	'guest-order-claiming': 'built but off until its capability is Stable [R71]',
	'managed-isolation': 'a caveat to know before use, not a feature [R71]',
}

/** The bold labels of the bullets of the README's "What you get today". */
function readmeLabels(readme: string) {
	const section = /^## What you get today\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? ''
	return section
		.split('\n')
		.filter((line) => line.startsWith('- '))
		.map((line) => /^- \*\*([^*]+)\*\*/.exec(line)?.[1] ?? `(a bullet without a bold label: ${line.slice(0, 60)})`)
}

describe('the README and the capability registry [R70]', () => {
	const known = new Map(CAPABILITIES.map((capability) => [capability.id, capability]))
	const offered = Object.values(README_OFFERS).flat()

	it('maps every bullet of "What you get today" to the registry, and nothing else', () => {
		expect(readmeLabels(readFileSync('README.md', 'utf8')).sort()).toEqual(Object.keys(README_OFFERS).sort())
	})

	it('offers only capabilities the registry has, offered and running', () => {
		expect(offered.filter((id) => !known.has(id) || !isEnabled(id))).toEqual([])
		expect(new Set(offered).size).toBe(offered.length)
	})

	it('leaves no capability of the registry out of the README, unless it is not offered today for a stated reason', () => {
		const unclaimed = CAPABILITIES.map((capability) => capability.id).filter((id) => !offered.includes(id) && !(id in NOT_OFFERED_TODAY))
		expect(unclaimed).toEqual([])
		for (const id of Object.keys(NOT_OFFERED_TODAY)) expect(known.get(id)?.maturity, id).toBe('experimental')
	})

	it('publishes each capability the README offers in the current release guidance', () => {
		const page = readFileSync(`docs/releases/${RELEASES.at(-1)!.version}.md`, 'utf8')
		expect(offered.filter((id) => !page.includes(`| ${known.get(id)?.title} |`))).toEqual([])
	})
})
