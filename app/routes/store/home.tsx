import { Link, useRouteLoaderData } from 'react-router'
import type { loader as rootLoader } from '../../root'

export const meta = () => [{ title: 'Store' }]

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
