import { Link, useRouteLoaderData } from 'react-router'
import type { loader as rootLoader } from '../../root'

/** The tab shows the Store's own name (issue 5.11), from the root loader. */
export const meta = ({ matches }: { matches: Array<{ id: string; data?: unknown } | undefined> }) => {
	const root = matches.find((match) => match?.id === 'root')?.data as { storeName?: string } | undefined
	return [{ title: root?.storeName ?? 'Store' }]
}

export default function Home() {
	const root = useRouteLoaderData<typeof rootLoader>('root')
	return (
		<section>
			<h1>Welcome to {root?.storeName}</h1>
			{root?.viewer.signedIn ? (
				<p>
					Signed in as {root.viewer.name}. <Link to="/account">Your account</Link>
				</p>
			) : (
				<p>
					Browse as a guest, or <Link to="/sign-up">create an account</Link>.
				</p>
			)}
		</section>
	)
}
