import { describe, expect, it } from 'vitest'
import { requiredNodeMajor, unsupportedNode } from './node-runtime.server'

describe('the Node the store runs on', () => {
	it('is a supported LTS, as package.json engines names it', () => {
		expect(requiredNodeMajor()).toBeGreaterThanOrEqual(24)
	})

	it('is what runs these tests: the runner is not older than engines names', () => {
		expect(unsupportedNode(process.version)).toBeNull()
		expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(requiredNodeMajor())
	})

	it('refuses an older major with the fix, and takes the same or a newer one', () => {
		expect(unsupportedNode('v20.20.2', 24)).toMatch(/Node v20\.20\.2 is older than the Node 24 .*npm start/)
		expect(unsupportedNode('v23.11.0', 24)).not.toBeNull()
		expect(unsupportedNode('v24.0.0', 24)).toBeNull()
		expect(unsupportedNode('v26.1.0', 24)).toBeNull()
	})
})
