import { useRouteLoaderData } from 'react-router'
import type { loader as rootLoader } from '../root'
import { formatMoney } from '../rules/money'

/** Formats minor units in the Store's currency and locale (from the root loader). */
export function useMoney() {
	const money = useRouteLoaderData<typeof rootLoader>('root')?.money ?? { currency: 'USD', locale: 'en-US' }
	return (minor: number, currency = money.currency) => formatMoney(minor, currency, money.locale)
}

export function Price({ minor, currency }: { minor: number; currency?: string }) {
	const format = useMoney()
	return <span className="price">{format(minor, currency)}</span>
}
