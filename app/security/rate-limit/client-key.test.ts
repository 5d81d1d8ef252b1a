import { describe, expect, it } from 'vitest'
import { clientKey } from './client-key'

describe('the client a limit counts for [R56]', () => {
	it('counts every address of one IPv6 /64 as one client, however it is written', () => {
		const one = clientKey('2001:db8:1:2::1')
		expect(one).toBe('2001:db8:1:2::/64')
		for (const address of [
			'2001:db8:1:2:ffff:ffff:ffff:ffff',
			'2001:0DB8:0001:0002:0:0:0:7',
			'[2001:db8:1:2::9]',
			'2001:db8:1:2::a%eth0',
			'2001:db8:1:2:0:0:192.0.2.1',
		]) {
			expect(clientKey(address), address).toBe(one)
		}
		expect(clientKey('2001:db8:1:3::1')).not.toBe(one)
		expect(clientKey('::1')).toBe('0:0:0:0::/64')
		expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64')
	})

	it('counts an IPv4 address as itself, also when a dual-stack socket writes it as IPv6', () => {
		expect(clientKey('203.0.113.7')).toBe('203.0.113.7')
		expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
		expect(clientKey('::FFFF:203.0.113.7')).toBe('203.0.113.7')
		expect(clientKey('203.0.113.8')).not.toBe(clientKey('203.0.113.7'))
	})

	it('keeps what is no address as it is', () => {
		expect(clientKey('unknown')).toBe('unknown')
		expect(clientKey('')).toBe('')
	})
})
