import { isIPv4, isIPv6 } from 'node:net'

/**
 * The client a limit counts for [R56]: an IPv4 address as it is, an IPv6 address by its /64.
 * One IPv6 customer line or host is usually handed a whole /64, so each of its 2^64 addresses
 * counted as a client of its own, with a limit of its own. An IPv4 address written as IPv6
 * (`::ffff:192.0.2.1`, as a dual-stack socket reports it) is that IPv4 address. Anything else
 * (`unknown`) is kept as given.
 */
export function clientKey(address: string): string {
	const bare = address.trim().replace(/^\[|\]$/g, '')
	const zone = bare.indexOf('%')
	const ip = zone >= 0 ? bare.slice(0, zone) : bare
	if (isIPv4(ip)) return ip
	if (!isIPv6(ip)) return address
	const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
	if (mapped && isIPv4(mapped[1]!)) return mapped[1]!
	return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`
}

/** The eight groups of an IPv6 address, lower case without leading zeros (an embedded IPv4 tail as two groups). */
function expandIPv6(ip: string): string[] {
	let text = ip.toLowerCase()
	const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
	if (tail) {
		const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number]
		text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
	}
	const [head, rest] = text.split('::') as [string, string | undefined]
	const left = head ? head.split(':') : []
	const right = rest ? rest.split(':') : []
	const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
	return groups.map((group) => parseInt(group, 16).toString(16))
}
