import { data } from 'react-router'

export function loader() {
	throw data({ message: 'There is no page at this address.' }, { status: 404 })
}

export function action() {
	throw data({ message: 'There is no page at this address.' }, { status: 404 })
}

export default function NotFound() {
	return null
}
